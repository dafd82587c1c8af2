/**
 * `format: "xml"` (DeepL's `tag_handling=xml`): tags read as XML, elements inside text kept in
 * their sentence and structure elements between sentences (DeepL's outline detection, and the
 * tag options that change it), `<x/>` empty, and the item back byte for byte around the
 * translated text.
 */
import assert from "node:assert/strict";
import { DEFAULT_TAG_OPTIONS, type TagOptions } from "../../../translation/formats/format.ts";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { xmlFormat } from "../../../translation/formats/xml.ts";
import { dropPlaceholders, translateItem, upperCase } from "../../support/format_engines.ts";
import { seededJoins } from "../../support/seeded_random.ts";

const sentOf = async (text: string, tags?: Partial<TagOptions>) =>
  (await translateItem(xmlFormat, text, upperCase, tagged(tags))).sent;

/** Cut options with these tag options over the defaults. */
function tagged(tags: Partial<TagOptions> = {}) {
  return { tags: { ...DEFAULT_TAG_OPTIONS, ...tags } };
}

Deno.test("a CAT tool's sentence with its own tags goes to the engine whole", async () => {
  const text = 'Press <x id="1"/> to <g id="2">save</g> the file, then <ph/> close it.';
  assert.deepEqual(await sentOf(text), [
    "Press <x1/> to <x2>save</x2> the file, then <x3/> close it.",
  ]);
  // As HTML too: elements HTML does not define stay inside the sentence.
  assert.deepEqual((await translateItem(htmlFormat, text, upperCase)).sent, await sentOf(text));
  assert.equal(
    (await translateItem(xmlFormat, text, upperCase)).text,
    'PRESS <x id="1"/> TO <g id="2">SAVE</g> THE FILE, THEN <ph/> CLOSE IT.',
  );
});

Deno.test("no element name means anything: <kbd/> is empty, <code> is translated", async () => {
  assert.deepEqual(await sentOf("<p>Press <kbd/> to <code>save</code> now.</p>"), [
    "Press <x1/> to <x2>save</x2> now.",
  ]);
});

Deno.test("declarations stand between sentences; comments and CDATA stay whole, references are read", async () => {
  const text = '<?xml version="1.0"?>\n<!DOCTYPE note [ <!ENTITY a "b"> ]>\n' +
    "<note>Tom &amp; Jerry <b>are</b> here. <!-- c --> Done <![CDATA[x < y]]> now.</note>";
  // `&amp;` reaches the engine as `&`; changed, the run is written with `&amp;` again.
  assert.deepEqual(await sentOf(text), [
    "Tom & Jerry <x1>are</x1> here. <x2/> Done <x3/> now.",
  ]);
  assert.equal(
    (await translateItem(xmlFormat, text, upperCase)).text,
    text.replace("Tom", "TOM").replace("Jerry", "JERRY").replace(">are<", ">ARE<")
      .replace("here. ", "HERE. ").replace("Done", "DONE").replace(" now.", " NOW."),
  );
});

Deno.test("malformed XML keeps its shape", async () => {
  for (
    const [text, sent] of [
      ["</g> stray <g>unclosed text", ["stray <x1/>unclosed text"]],
      ["a < b and 3<4", ["a < b and 3<4"]],
      ["Open <!-- never closed", ["Open"]],
      ['<t:x xml:lang="en">Grüße <ph title="a>b"/> und</t:x>', ["Grüße <x1/> und"]],
    ] as const
  ) {
    assert.deepEqual(await sentOf(text), sent, text);
    assert.equal((await translateItem(xmlFormat, text, (t) => t)).text, text, text);
  }
});

Deno.test("a whole XML document is cut at its structure, as DeepL's outline detection", async () => {
  // DeepL's own example: `title` and `par` hold text, so each is its own unit; `b` is inside one.
  const text = '<?xml version="1.0"?>\n<document>\n  <meta>\n    <title>A title</title>\n' +
    "  </meta>\n  <content>\n    <par>The first sentence. A second one.</par>\n" +
    "    <par>The <b>third</b> sentence.</par>\n  </content>\n</document>";
  assert.deepEqual(await sentOf(text), [
    "A title",
    "The first sentence. A second one.",
    "The <x1>third</x1> sentence.",
  ]);
  assert.equal(
    (await translateItem(xmlFormat, text, upperCase)).text,
    text.replace("A title", "A TITLE").replace(
      "The first sentence. A second one.",
      (s) => s.toUpperCase(),
    ).replace("The <b>third</b> sentence.", "THE <b>THIRD</b> SENTENCE."),
  );
  // Without the detection every element is inline: one unit with the structure as placeholders.
  const [whole] = await sentOf(text, { outlineDetection: false });
  assert.match(whole, /^<x1>\s+<x2>A title<\/x2>\s+<\/x1>\s+<x3>/);
  // A CAT tool's item wrapped in one element: the element's tags stay out of the sentence.
  assert.deepEqual(await sentOf('<g id="1">Save <g id="2">all</g> files</g>'), [
    "Save <x1>all</x1> files",
  ]);
});

Deno.test("splitting_tags always split, non_splitting_tags never do", async () => {
  // DeepL's "restricting splitting" case: a sentence running over two structure elements.
  const text = "<content><par>The firm said it had been</par><par>looking into it.</par></content>";
  assert.deepEqual(await sentOf(text), ["The firm said it had been", "looking into it."]);
  assert.deepEqual(await sentOf(text, { nonSplitting: new Set(["par"]) }), [
    "<x1>The firm said it had been</x1><x2>looking into it.</x2>",
  ]);
  const lines = "<p>First line<br/>second line, <sep>third</sep> line</p>";
  assert.deepEqual(await sentOf(lines), ["First line<x1/>second line, <x2>third</x2> line"]);
  assert.deepEqual(await sentOf(lines, { splitting: new Set(["br", "sep"]) }), [
    "First line",
    "second line,",
    "third",
    "line",
  ]);
  // An element split by a splitting tag leaves its tags out of both sentences.
  assert.deepEqual(
    await sentOf("<doc><b>First <sep/> second</b></doc>", { splitting: new Set(["sep"]) }),
    ["First", "second"],
  );
  // Names are XML's: case counts.
  assert.deepEqual(await sentOf(lines, { splitting: new Set(["BR"]) }), await sentOf(lines));
  for (const tags of [{ splitting: new Set(["br", "sep"]) }, { nonSplitting: new Set(["par"]) }]) {
    for (const item of [text, lines]) {
      const output = (await translateItem(xmlFormat, item, upperCase, tagged(tags))).text;
      assert.equal(output.replace(/>[^<]*</g, "><"), item.replace(/>[^<]*</g, "><"));
    }
  }
});

Deno.test("ignore_tags: the element is kept whole, its text never sent", async () => {
  const text = "Please open the page <x>Settings</x> to configure your system.";
  const ignore = new Set(["x"]);
  assert.deepEqual(await sentOf(text, { ignore }), [
    "Please open the page <x1/> to configure your system.",
  ]);
  assert.equal(
    (await translateItem(xmlFormat, text, upperCase, tagged({ ignore }))).text,
    "PLEASE OPEN THE PAGE <x>Settings</x> TO CONFIGURE YOUR SYSTEM.",
  );
  for (
    const [item, sent, kept] of [
      // A structure element ignored: nothing of it is sent.
      ["<doc><par>Hello there</par><x>Keep <b>all</b> this</x></doc>", ["Hello there"], [
        "<x>Keep <b>all</b> this</x>",
      ]],
      // Nested, and one inside another ignored one.
      ["A <x>b <x>c</x> d</x> e <y><x>f</x></y>.", ["A <x1/> e <x2><x3/></x2>."], [
        "<x>b <x>c</x> d</x>",
        "<x>f</x>",
      ]],
      // Left unclosed: kept to where its parent ends, or to the end of the item.
      ["<p>One <x>two <b>three</p><p>Four</p>", ["One", "Four"], ["<x>two <b>three</p>"]],
      ["Text <x>kept to the end", ["Text"], ["<x>kept to the end"]],
    ] as const
  ) {
    assert.deepEqual(await sentOf(item, { ignore }), sent, item);
    const output = (await translateItem(xmlFormat, item, upperCase, tagged({ ignore }))).text;
    for (const whole of kept) assert.ok(output.includes(whole), `${item}: ${output}`);
  }
});

/** Pieces of generated items: tags of every shape, declarations, text, malformed markup. */
const PIECES = [
  ...["<g>", "</g>", '<x id="1"/>', "<ph/>", "<bpt i='1'>", "</bpt>", '<t:a b="c>d">', "</t:a>"],
  ...["<!-- c -->", "<!--", "-->", "<![CDATA[a < b]]>", "<?pi x?>", "<!DOCTYPE d>", "</stray>"],
  ...["Hello ", "world. ", "Köln ", "東京 ", "&amp;", "&lt;", "& ", " ", "\n", "\n\n", ">", "<3"],
];

/** Tag options the generated items are read with, in turn. */
const TAG_CHOICES: Partial<TagOptions>[] = [
  {},
  { outlineDetection: false },
  { ignore: new Set(["g", "t:a"]) },
  { splitting: new Set(["ph", "bpt"]), nonSplitting: new Set(["g"]) },
];

Deno.test("generated items come back byte for byte, and changed only in their text", async () => {
  for (const [index, text] of seededJoins(PIECES, 3000, 7).entries()) {
    const options = tagged(TAG_CHOICES[index % TAG_CHOICES.length]);
    const label = `${JSON.stringify(text)} ${index % TAG_CHOICES.length}`;
    assert.equal((await translateItem(xmlFormat, text, (t) => t, options)).text, text, label);
    // Upper-casing the text, or dropping every placeholder (the fallback then puts the text back
    // run by run), changes nothing but letters' case and the escapes of a changed run (a bare
    // `<` or `&` of malformed text comes back escaped): no tag moves, doubles or goes.
    for (const engine of [upperCase, dropPlaceholders]) {
      const output = (await translateItem(xmlFormat, text, engine, options)).text;
      assert.equal(unescaped(output.toLowerCase()), unescaped(text.toLowerCase()), label);
      assert.deepEqual(tagsOf(output.toLowerCase()), tagsOf(text.toLowerCase()), label);
    }
  }
});

/** XML's three escapes read back. */
function unescaped(text: string): string {
  return text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/** What opens markup: tags, declarations, comments and CDATA sections. */
function tagsOf(text: string): string[] {
  return text.match(/<[!?/]?[a-z_:][^<>]*>|<!--|<!\[CDATA\[/g) ?? [];
}

Deno.test("xml: references reach the engine as characters, a DTD's entities stay whole, and changed text comes back well-formed", async () => {
  const text = '<seg>Values &lt; ten &amp; &product; caf&#233; <g id="1">now</g></seg>';
  assert.deepEqual(await sentOf(text), ["Values < ten & <x1/> café <x2>now</x2>"]);
  assert.equal((await translateItem(xmlFormat, text, (t) => t)).text, text);
  const answered = await translateItem(
    xmlFormat,
    '<seg>Values less than <g id="1">ten</g></seg>',
    (t) => t.replace("less than", "< & >"),
  );
  assert.equal(answered.text, '<seg>Values &lt; &amp; &gt; <g id="1">ten</g></seg>');
});

Deno.test("xml drops the control characters an engine writes: XML 1.0 has no place for them", async () => {
  const output = await translateItem(
    xmlFormat,
    "<seg>Hello there</seg>",
    (t) => `${t}\u0001\u0000!`,
  );
  assert.equal(output.text, "<seg>Hello there!</seg>");
});
