/**
 * `format: "xml"` over HTTP with the markup a localisation pipeline sends whole: entity
 * references a DTD defines and doctypes with an internal subset come back byte for byte, and
 * only the text around them reaches the engine.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

async function translateXml(item: string) {
  const { texts, sent } = await translateUpperCased([item], { mode: "paragraph", format: "xml" });
  return { text: texts[0], sent };
}

Deno.test("format xml keeps entity references whose names hold - . _ or letters beyond ASCII", async () => {
  // DocBook and DITA name their entities so: `&product-name;`, `&rel.date;`, `&Straße;`.
  const item = "<para>Install &product-name; &rel.date; on &os_name; in &Straße;.</para>";
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Install <x1/> <x2/> on <x3/> in <x4/>."]);
  assert.equal(text, "<para>INSTALL &product-name; &rel.date; ON &os_name; IN &Straße;.</para>");
});

/** Doctypes whose internal subset or identifiers hold `]`, `[` or `>`. */
const DOCTYPES = [
  '<!DOCTYPE doc [ <!ENTITY ver "[1.0]"> ]>',
  "<!DOCTYPE doc [ <!-- ] ends nothing --> <!ENTITY a 'b'> ]>",
  '<!DOCTYPE doc [ <!ENTITY gt2 "a > b"> <?pi ] ?> ]>',
  '<!DOCTYPE doc SYSTEM "schemas/doc[v2].dtd">',
  "<!DOCTYPE doc PUBLIC '-//A//DTD B>C//EN' 'b.dtd'>",
];

Deno.test("format xml keeps a doctype whole when its subset or identifiers hold ] [ or >", async () => {
  for (const doctype of DOCTYPES) {
    const item = `<?xml version="1.0"?>\n${doctype}\n<doc><par>Hello there.</par></doc>`;
    const { text, sent } = await translateXml(item);
    assert.deepEqual(sent, ["Hello there."], doctype);
    assert.equal(text, item.replace("Hello there.", "HELLO THERE."), doctype);
  }
});

Deno.test("format xml keeps a reference to no character (&#0;, a surrogate, past U+10FFFF) as written", async () => {
  // Read, each became U+FFFD, sent and written back in place of what the source said.
  const item = "<seg>Null &#0; half &#xD800; past &#x110000; kept, &#xFFFD; read</seg>";
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Null <x1/> half <x2/> past <x3/> kept, \uFFFD read"]);
  // A reference to a character the translation keeps is written back as the author wrote it.
  assert.equal(
    text,
    "<seg>NULL &#0; HALF &#xD800; PAST &#x110000; KEPT, &#xFFFD; READ</seg>",
  );
});

Deno.test("format xml keeps a processing instruction inside its sentence, as it does a comment", async () => {
  // Oxygen writes its review comments so in DITA: cut there, the engine got "Click", "here"
  // and "to save the file." on their own.
  const item = '<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<p>Click ' +
    '<?oxy_comment_start author="ann" comment="check"?>here<?oxy_comment_end?> to save.</p>';
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Click <x1/>here<x2/> to save."]);
  assert.equal(
    text,
    item.replace("Click", "CLICK").replace(/here(?=<)/, "HERE").replace(
      "to save.",
      "TO SAVE.",
    ),
  );
});
