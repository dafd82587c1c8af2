/**
 * An engine's answer written back into Markdown over HTTP: a run the engine changed is escaped
 * so that it makes no new structure where it stands (markdown_escape.ts), a run it left alone
 * comes back byte for byte. The structure is checked with micromark-based mdast, as a renderer
 * reads it.
 */
import assert from "node:assert/strict";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfm } from "micromark-extension-gfm";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { translateThrough } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

/** The block node types of a document, depth first. */
function blockTypes(markdown: string): string[] {
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const types: string[] = [];
  const walk = (node: { type: string; children?: unknown[] }) => {
    if (node.type !== "text" && node.type !== "emphasis") types.push(node.type);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(tree as never);
  return types;
}

/** Each case: the source, what the engine writes for it, and the output. */
const ANSWERS: [string, (text: string) => string, string][] = [
  // A delimiter row under a line of a paragraph made it a table's head.
  [
    "Line one\nline two\nline three\n",
    (text) => text.replace("line two", "| a | b |").replace("line three", "|---|---|"),
    "Line one\n\\| a | b |\n\\|---|---|\n",
  ],
  [
    "Line one\nline two\nline three\n",
    (text) => text.replace("line two", "a | b").replace("line three", ":-- | --:"),
    "Line one\na | b\n\\:-- | --:\n",
  ],
  // Four spaces at a block's start made it indented code, in a list item and a quote too.
  ["Line one\n", () => "    indented words", "indented words\n"],
  ["Line one\n", () => "\tindented words", "indented words\n"],
  ["- item\n", () => "    item words", "- item words\n"],
  ["> quote\n", () => "    quoted words", "> quoted words\n"],
  // What was escaped already: markers, emphasis, brackets, tags.
  [
    "Line one\nline two\n",
    (text) => text.replace("line two", "# two *x* _y_ [z] <b>"),
    "Line one\n\\# two \\*x\\* \\_y\\_ \\[z\\] &lt;b>\n",
  ],
];

Deno.test("markdown: a changed run at a line's start makes no table and no indented code", async () => {
  for (const [source, answer, expected] of ANSWERS) {
    const { texts } = await translateThrough([source], MARKDOWN, answer);
    assert.equal(texts[0], expected, source);
    assert.deepEqual(blockTypes(texts[0]), blockTypes(source), source);
  }
});

Deno.test("markdown: runs an engine leaves alone come back byte for byte", async () => {
  const item = "| a | b |\n|---|---|\n| `x|y` | [l](u) |\n\n    code\n\nText  \n- a\n\n1) b\n";
  const { texts } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.equal(texts[0], item);
});

Deno.test("markdown: references and escapes keep the author's spelling in a changed run", async () => {
  // A run the engine changed came back with every reference decoded: '&copy;' as '©', '&#64;'
  // as '@', '&amp;' as '&'. Same rendering, other bytes: a diff of the file showed each.
  const item =
    "Copyright &copy; 2024, mail me&#64;example.org &amp; \\*not\\* emphasis &#42;.\n\n" +
    "# Caf&eacute; &lt;menu&gt;\n\n| A &#124; B | C |\n|---|---|\n| x &amp; y | z |\n";
  const echoed = await translateThrough([item], MARKDOWN, (text) => text);
  assert.equal(echoed.texts[0], item);
  assert.ok(
    echoed.sent.includes("Copyright © 2024, mail me@example.org & <x1/>not<x2/> emphasis *."),
  );
  // A translation that keeps the characters keeps the references they were written as.
  const { texts } = await translateThrough([item], MARKDOWN, (text) => text.replace(/^/, "Neu: "));
  assert.equal(
    texts[0],
    "Neu: Copyright &copy; 2024, mail me&#64;example.org &amp; \\*not\\* emphasis &#42;.\n\n" +
      "# Neu: Caf&eacute; &lt;menu&gt;\n\n| Neu: A &#124; B | Neu: C |\n|---|---|\n" +
      "| Neu: x &amp; y | Neu: z |\n",
  );
  assert.deepEqual(blockTypes(texts[0]), blockTypes(item));
});

Deno.test("markdown: a character written both as itself and as a reference is left as escaped", async () => {
  // Which of the two spellings a translated '©' stands for is unknown: it is written as read.
  const item = "© and &copy; and & and &amp;\n";
  const { texts } = await translateThrough([item], MARKDOWN, (text) => "Neu: " + text);
  assert.equal(texts[0], "Neu: © and © and & and &\n");
});

Deno.test("markdown: an escaped < or > reaches the engine as the character and comes back escaped", async () => {
  // As placeholders they split the sentence (`Use the <x1/>Button<x2/> component`), and an
  // engine cannot read `x <x1/> 3` as a comparison. `&lt;` reads so already.
  const item = "Use the \\<Button\\> component when x \\< 3 or y \\> 4.\n";
  const { texts, sent } = await translateThrough([item], MARKDOWN, (text) => text.toUpperCase());
  assert.deepEqual(sent, ["Use the <Button> component when x < 3 or y > 4."]);
  // Written back as the author wrote them: MDX refuses a bare `<` before a space or a name.
  assert.equal(texts[0], "USE THE \\<BUTTON\\> COMPONENT WHEN X \\< 3 OR Y \\> 4.\n");
  const { texts: echoed } = await translateThrough([item], MARKDOWN, (text) => text);
  assert.deepEqual(echoed, [item]);
  // A source that could spell a placeholder token with them keeps them whole.
  const forged = "Type \\<x1/\\> here.\n";
  const { sent: forgedSent } = await translateThrough([forged], MARKDOWN, (text) => text);
  assert.deepEqual(forgedSent, ["Type <x1/>x1/<x2/> here."]);
});
