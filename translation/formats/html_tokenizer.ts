/**
 * parse5's HTML5 tokenizer, reading runs of plain characters at once.
 *
 * parse5 runs its state machine once per code point. In text (the data, RCDATA, RAWTEXT and
 * script data states) every code point but a few (`<`, `&`, NUL, the end) only extends the
 * current character token; in a tag or attribute name every name character only extends the
 * name; in a quoted attribute value or a comment most only extend the value. Yet each one costs
 * a state dispatch, and text flips between whitespace and character tokens at every word, each
 * flip emitting a token. Here such a run is taken in one step: the tokenizer's position moves
 * to the run's last code unit and the token's source range (or the name) is extended over it,
 * so the tokens, their attributes and their offsets are the ones parse5 gives, with fewer,
 * longer character tokens (whitespace and text in one: the cut reads only their offsets).
 * tests/translation/formats/html_tokenizer_test.ts holds both tokenizers to the same tokens.
 * Most items are read by the faster scanner (html_scanner.ts); this reads the rest.
 *
 * A run stops before anything the state machine treats apart (`<`, `&`, NUL, a quote, `-` in
 * a comment, CR, which the input stream turns into LF, a surrogate), so those code points take
 * parse5's own path; stopping early is always safe. Line and column numbers are not kept up to
 * date over a run: only offsets are read (html_tokens.ts).
 */
import { type HtmlAttribute, isTranslatedAttribute, NO_ATTRIBUTES } from "./html_attributes.ts";
import { type Token, Tokenizer, TokenizerMode } from "parse5";
import { type TextMode, type Token as CutToken, TokenBuilder } from "./html_tokens.ts";

const LESS_THAN = 0x3c;
const AMPERSAND = 0x26;
const NUL = 0x00;
const CARRIAGE_RETURN = 0x0d;

/** Whether a code unit may start a surrogate pair, or be half of one. */
function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}

/** Whether a code unit ends a text run (parse5 treats it apart, or it may start a pair). */
function endsText(unit: number): boolean {
  return unit === LESS_THAN || unit === AMPERSAND || unit === NUL || unit === CARRIAGE_RETURN ||
    isSurrogate(unit);
}

/** Whether a code unit continues a name as written: ASCII letters, digits, `-`, `_`, `:`. */
function inName(unit: number): boolean {
  return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) ||
    (unit >= 0x41 && unit <= 0x5a) || unit === 0x2d || unit === 0x5f || unit === 0x3a;
}

/** Whether a code unit ends a double-quoted attribute value's run. */
function endsDoubleQuoted(unit: number): boolean {
  return unit === 0x22 || unit === AMPERSAND || unit === NUL || unit === CARRIAGE_RETURN ||
    isSurrogate(unit);
}

/** Whether a code unit ends a single-quoted attribute value's run. */
function endsSingleQuoted(unit: number): boolean {
  return unit === 0x27 || unit === AMPERSAND || unit === NUL || unit === CARRIAGE_RETURN ||
    isSurrogate(unit);
}

/** Whether a code unit ends a comment's run (`-` may end the comment, `<` may nest one). */
function endsComment(unit: number): boolean {
  return unit === 0x2d || unit === LESS_THAN || unit === NUL || unit === CARRIAGE_RETURN ||
    isSurrogate(unit);
}

/** parse5's tokenizer state for each way of reading an element's content. */
const TOKENIZER_STATES: Readonly<Record<TextMode, number>> = {
  rawtext: TokenizerMode.RAWTEXT,
  rcdata: TokenizerMode.RCDATA,
  script: TokenizerMode.SCRIPT_DATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

/**
 * The cut's tokens of an item read by parse5's tokenizer (taking runs of plain characters at once):
 * every input, however malformed, is read as HTML5 says.
 */
export function parse5Tokens(source: string, ignored?: ReadonlySet<string>): CutToken[] {
  const builder = new TokenBuilder(source, ignored);
  const text = ({ location }: Token.CharacterToken) =>
    builder.text(location!.startOffset, location!.endOffset);
  const tokenizer: Tokenizer = new RunTokenizer({ sourceCodeLocationInfo: true }, {
    onCharacter: text,
    onNullCharacter: text,
    onWhitespaceCharacter: text,
    onComment: ({ location }) =>
      builder.leaf("comment", location!.startOffset, location!.endOffset),
    onDoctype: ({ location }) =>
      builder.leaf("doctype", location!.startOffset, location!.endOffset),
    onEof: () => {},
    onStartTag(token) {
      const location = token.location!;
      const mode = builder.startTag({
        name: token.tagName,
        attributes: attributesOf(token),
        translate: token.attrs.find((attribute) => attribute.name === "translate")?.value,
        classes: token.attrs.find((attribute) => attribute.name === "class")?.value,
        type: token.attrs.find((attribute) => attribute.name === "type")?.value,
        selfClosing: token.selfClosing,
        start: location.startOffset,
        end: location.endOffset,
      });
      if (mode !== undefined) tokenizer.state = TOKENIZER_STATES[mode];
      tokenizer.inForeignNode = builder.inForeign;
    },
    onEndTag(token) {
      builder.endTag(token.tagName, token.location!.startOffset, token.location!.endOffset);
      tokenizer.inForeignNode = builder.inForeign;
    },
  });
  tokenizer.write(source, true);
  return builder.finish();
}

/** The translated attributes of a start tag, with where each is written, `name="value"` whole. */
function attributesOf(token: Token.TagToken): readonly HtmlAttribute[] {
  const translated = token.attrs.filter(({ name }) => isTranslatedAttribute(name));
  if (translated.length === 0) return NO_ATTRIBUTES;
  const locations = token.location!.attrs!;
  return translated.map(({ name }) => ({
    name,
    start: locations[name].startOffset,
    end: locations[name].endOffset,
  }));
}

/** The tokenizer parse5Tokens reads an item with (the handler is parse5's). */
export class RunTokenizer extends Tokenizer {
  protected override _stateData(cp: number): void {
    if (!this.#textRun(cp)) super._stateData(cp);
  }

  protected override _stateRcdata(cp: number): void {
    if (!this.#textRun(cp)) super._stateRcdata(cp);
  }

  protected override _stateRawtext(cp: number): void {
    if (!this.#textRun(cp)) super._stateRawtext(cp);
  }

  protected override _stateScriptData(cp: number): void {
    if (!this.#textRun(cp)) super._stateScriptData(cp);
  }

  protected override _stateTagName(cp: number): void {
    const name = this.#nameRun(cp);
    if (name === undefined) super._stateTagName(cp);
    else (this.currentToken as { tagName: string }).tagName += name;
  }

  protected override _stateAttributeName(cp: number): void {
    const name = this.#nameRun(cp);
    if (name === undefined) super._stateAttributeName(cp);
    else this.currentAttr.name += name;
  }

  protected override _stateAttributeValueDoubleQuoted(cp: number): void {
    if (!this.#valueRun(cp, endsDoubleQuoted)) super._stateAttributeValueDoubleQuoted(cp);
  }

  protected override _stateAttributeValueSingleQuoted(cp: number): void {
    if (!this.#valueRun(cp, endsSingleQuoted)) super._stateAttributeValueSingleQuoted(cp);
  }

  protected override _stateComment(cp: number): void {
    if (!this.#valueRun(cp, endsComment)) super._stateComment(cp);
  }

  /**
   * Takes a run of name characters starting with `cp` as one step and returns it lower-cased
   * (what parse5 appends one by one); undefined when `cp` is not a name character as written.
   */
  #nameRun(cp: number): string | undefined {
    const preprocessor = this.preprocessor;
    const html = preprocessor.html;
    const start = preprocessor.pos;
    if (!inName(cp) || html.charCodeAt(start) !== cp) return undefined;
    let end = start + 1;
    while (end < html.length && inName(html.charCodeAt(end))) end++;
    preprocessor.pos = end - 1;
    return html.slice(start, end).toLowerCase();
  }

  /**
   * Takes a run of an attribute value or a comment, starting with `cp`, as one step; false when
   * `cp` is not such a code unit as written.
   */
  #valueRun(cp: number, ends: (unit: number) => boolean): boolean {
    const preprocessor = this.preprocessor;
    const html = preprocessor.html;
    const start = preprocessor.pos;
    if (ends(cp) || html.charCodeAt(start) !== cp) return false;
    this._extendRun(cp);
    this.#skip(ends);
    return true;
  }

  /** Moves past the code units after the current one up to one that `ends` a run. */
  #skip(ends: (unit: number) => boolean): void {
    const preprocessor = this.preprocessor;
    const html = preprocessor.html;
    let end = preprocessor.pos + 1;
    while (end < html.length && !ends(html.charCodeAt(end))) end++;
    // The run is [runStart, runEnd) of the input: the token's text covers the skipped units.
    this.runEnd = end;
    preprocessor.pos = end - 1;
  }

  /**
   * Takes a run of plain text starting with `cp` as one step; false when `cp` is not plain
   * text as written, and parse5's own state handles it.
   */
  #textRun(cp: number): boolean {
    const preprocessor = this.preprocessor;
    if (endsText(cp) || preprocessor.html.charCodeAt(preprocessor.pos) !== cp) return false;
    // parse5's own step first: it may end the previous token and drop the parsed input, which
    // moves the offsets read after it.
    this._emitCodePoint(cp);
    this.#skip(endsText);
    return true;
  }
}
