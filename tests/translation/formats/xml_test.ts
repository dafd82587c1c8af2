/**
 * `format: "xml"` (DeepL's `tag_handling=xml`): tags read as XML, every element inside its
 * sentence, `<x/>` empty, and the item back byte for byte around the translated text.
 */
import assert from "node:assert/strict";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { xmlFormat } from "../../../translation/formats/xml.ts";
import { dropPlaceholders, translateItem, upperCase } from "../../support/format_engines.ts";
import { seededJoins } from "../../support/seeded_random.ts";

const sentOf = async (text: string) => (await translateItem(xmlFormat, text, upperCase)).sent;

Deno.test("a CAT tool's sentence with its own tags goes to the engine whole", async () => {
  const text = 'Press <x id="1"/> to <g id="2">save</g> the file, then <ph/> close it.';
  assert.deepEqual(await sentOf(text), [
    "Press <x1/> to <x2>save</x2> the file, then <x3/> close it.",
  ]);
  // As HTML, unknown tags split the sentence (and `<x/>` would open an element).
  assert.ok((await translateItem(htmlFormat, text, upperCase)).sent.length > 1);
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

Deno.test("declarations stand between sentences; comments, CDATA and entities stay whole", async () => {
  const text = '<?xml version="1.0"?>\n<!DOCTYPE note [ <!ENTITY a "b"> ]>\n' +
    "<note>Tom &amp; Jerry <b>are</b> here. <!-- c --> Done <![CDATA[x < y]]> now.</note>";
  assert.deepEqual(await sentOf(text), [
    "Tom <x1/> Jerry <x2>are</x2> here. <x3/> Done <x4/> now.",
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

/** Pieces of generated items: tags of every shape, declarations, text, malformed markup. */
const PIECES = [
  ...["<g>", "</g>", '<x id="1"/>', "<ph/>", "<bpt i='1'>", "</bpt>", '<t:a b="c>d">', "</t:a>"],
  ...["<!-- c -->", "<!--", "-->", "<![CDATA[a < b]]>", "<?pi x?>", "<!DOCTYPE d>", "</stray>"],
  ...["Hello ", "world. ", "Köln ", "東京 ", "&amp;", "&lt;", "& ", " ", "\n", "\n\n", ">", "<3"],
];

Deno.test("generated items come back byte for byte, and changed only in their text", async () => {
  for (const text of seededJoins(PIECES, 3000, 7)) {
    assert.equal((await translateItem(xmlFormat, text, (t) => t)).text, text, JSON.stringify(text));
    // Upper-casing the text, or dropping every placeholder (the fallback then puts the text back
    // run by run), changes nothing but letters' case: no tag moves, doubles or goes.
    for (const engine of [upperCase, dropPlaceholders]) {
      const output = (await translateItem(xmlFormat, text, engine)).text;
      assert.equal(output.toLowerCase(), text.toLowerCase(), JSON.stringify(text));
    }
  }
});
