import assert from "node:assert/strict";
import { type Token, Tokenizer, TokenizerMode } from "parse5";
import { RunTokenizer } from "../../../translation/formats/html_tokenizer.ts";
import { seededJoins } from "../../support/seeded_random.ts";

/** Pieces the generated inputs are made of: every character class a run stops at, and tags. */
const PIECES = [
  ...["<", ">", "</", "/>", "&", "&amp;", "&lt", "&#x41;", "=", '"', "'", "-", "--", "<!"],
  ...["\r", "\n", "\r\n", " ", "\t", "\0", "\u{1F600}", "\uD800", "\uDC00", "a", "B", "é"],
  ...["<!--", "-->", "<?", "<p", "<P ", "<DiV", "</p>", "<h1>", "<br/>", "<my-el:x_1>"],
  ...["<script>", "</script>", "<style>", "</style>", "<title>", "</title>", "<textarea>"],
  ...["</textarea>", "<svg>", "</svg>", "<![CDATA[", "]]>", ' x="', " Y='", "<a href=x>"],
  ...["<img alt='c'>", "<!DOCTYPE html>", " hello world ", "x".repeat(30)],
];
const TEXT_MODES = new Map([
  ["script", TokenizerMode.SCRIPT_DATA],
  ["style", TokenizerMode.RAWTEXT],
  ["title", TokenizerMode.RCDATA],
  ["textarea", TokenizerMode.RCDATA],
]);

/** Every token with its offsets and content, text runs joined (html_tokens.ts reads offsets). */
function tokensOf(Kind: typeof Tokenizer, source: string): string[] {
  const tokens: string[] = [];
  let text: [number, number, string] | undefined;
  const flush = () => {
    if (text) tokens.push(`text ${text[0]}-${text[1]} ${JSON.stringify(text[2])}`);
    text = undefined;
  };
  const characters = ({ location, chars }: Token.CharacterToken) => {
    const { startOffset, endOffset } = location!;
    if (text?.[1] === startOffset) {
      text[1] = endOffset;
      text[2] += chars;
    } else {
      flush();
      text = [startOffset, endOffset, chars];
    }
  };
  const leaf = (kind: string) => (token: Token.CommentToken | Token.DoctypeToken) => {
    flush();
    const { startOffset, endOffset } = token.location!;
    // Line and column numbers are left out: the run tokenizer does not keep them.
    tokens.push(`${kind} ${startOffset}-${endOffset} ${JSON.stringify({ ...token, location: 0 })}`);
  };
  const tokenizer: Tokenizer = new Kind({ sourceCodeLocationInfo: true }, {
    onCharacter: characters,
    onNullCharacter: characters,
    onWhitespaceCharacter: characters,
    onComment: leaf("comment"),
    onDoctype: leaf("doctype"),
    onEof: flush,
    onStartTag(token) {
      flush();
      const { startOffset, endOffset, attrs } = token.location!;
      const where = Object.entries(attrs ?? {}).map(([name, at]) => [
        name,
        at.startOffset,
        at.endOffset,
      ]);
      tokens.push(
        `start ${token.tagName} ${startOffset}-${endOffset} ${JSON.stringify(token.attrs)} ` +
          `${JSON.stringify(where)} ${token.selfClosing}`,
      );
      if (token.tagName === "svg") tokenizer.inForeignNode = true;
      else if (!tokenizer.inForeignNode && TEXT_MODES.has(token.tagName)) {
        tokenizer.state = TEXT_MODES.get(token.tagName)!;
      }
    },
    onEndTag(token) {
      flush();
      tokens.push(
        `end ${token.tagName} ${token.location!.startOffset}-${token.location!.endOffset}`,
      );
      if (token.tagName === "svg") tokenizer.inForeignNode = false;
    },
  });
  tokenizer.write(source, true);
  return tokens;
}

Deno.test("the run tokenizer gives parse5's tokens, attributes and offsets on random markup", () => {
  for (const input of seededJoins(PIECES, 3000, 42)) {
    assert.deepEqual(
      tokensOf(RunTokenizer, input),
      tokensOf(Tokenizer, input),
      JSON.stringify(input),
    );
  }
});

Deno.test("the run tokenizer gives parse5's offsets past parse5's 64 KiB buffer, CRLF lines included", () => {
  // parse5 drops the parsed input past 64 KiB: runs must read the offsets it moves.
  const input = seededJoins(PIECES, 200, 7).join("\r\n").repeat(20);
  assert.ok(input.length > 3 * 65536, `${input.length}`);
  assert.deepEqual(tokensOf(RunTokenizer, input), tokensOf(Tokenizer, input));
});
