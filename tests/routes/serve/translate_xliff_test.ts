/**
 * A whole XLIFF file (1.2 or 2.0) under `format: "xml"`, over HTTP, as translation tools
 * (OmegaT, Weblate, Poedit, Okapi) read the answer: every source comes back byte for byte, each
 * unit gets a target holding the translation (inline codes as in its source), marked
 * translated, and the file names the target language. The stand-in upper-cases what it is sent.
 */
import assert from "node:assert/strict";
import { deeplClient } from "../../support/deepl_client.ts";
import { upperCase } from "../../support/format_engines.ts";
import { translateUpperCased } from "../../support/format_requests.ts";
import { withOnlyStandIn } from "../../support/stand_in_service.ts";

/** Every `<source>` element of a file, as written. */
function sources(xliff: string): string[] {
  return [...xliff.matchAll(/<source[\s>][^]*?<\/source>/g)].map((found) => found[0]);
}

/** Translates XLIFF files into de and checks that their sources are kept byte for byte. */
async function translateXliff(...items: string[]) {
  const result = await translateUpperCased(items, { mode: "paragraph", format: "xml" });
  result.texts.forEach((text, index) => assert.deepEqual(sources(text), sources(items[index])));
  return result;
}

Deno.test("format xml gives each XLIFF 1.2 trans-unit a translated target after its source (and seg-source), and the file its target-language", async () => {
  const xliff = '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n' +
    '  <file source-language="en" datatype="plaintext" original="app.txt">\n' +
    "    <body>\n" +
    '      <trans-unit id="greeting">\n' +
    "        <source>Hello world</source>\n" +
    "        <note>Shown on the home screen</note>\n" +
    "      </trans-unit>\n" +
    '      <trans-unit id="and"><source>Tom &amp; Jerry</source></trans-unit>\n' +
    '      <trans-unit id="bye">\n' +
    "        <source>Bye</source>\n" +
    '        <seg-source><mrk mid="0" mtype="seg">Bye</mrk></seg-source>\n' +
    "      </trans-unit>\n" +
    "    </body>\n" +
    "  </file>\n" +
    "</xliff>\n";
  const { texts, sent } = await translateXliff(xliff);
  assert.deepEqual(sent, ["Hello world", "Tom & Jerry", "Bye"]);
  assert.equal(
    texts[0],
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n' +
      '  <file source-language="en" target-language="de" datatype="plaintext" original="app.txt">\n' +
      "    <body>\n" +
      '      <trans-unit id="greeting">\n' +
      "        <source>Hello world</source>\n" +
      '        <target state="translated">HELLO WORLD</target>\n' +
      "        <note>Shown on the home screen</note>\n" +
      "      </trans-unit>\n" +
      '      <trans-unit id="and"><source>Tom &amp; Jerry</source>' +
      '<target state="translated">TOM &amp; JERRY</target></trans-unit>\n' +
      '      <trans-unit id="bye">\n' +
      "        <source>Bye</source>\n" +
      '        <seg-source><mrk mid="0" mtype="seg">Bye</mrk></seg-source>\n' +
      '        <target state="translated"><mrk mid="0" mtype="seg">BYE</mrk></target>\n' +
      "      </trans-unit>\n" +
      "    </body>\n" +
      "  </file>\n" +
      "</xliff>\n",
  );
});

Deno.test("format xml writes an XLIFF 1.2 target mirroring the unit's seg-source, one translated <mrk mtype=seg> per segment, as Okapi and memoQ write them", async () => {
  // Okapi's segmented output: the segments, what lies between them, inline codes in them.
  const okapi = '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2" ' +
    'xmlns:okp="okapi-framework:xliff-extensions">\n' +
    '<file original="help.html" source-language="en-us" target-language="de-de" ' +
    'datatype="html">\n<body>\n' +
    '<trans-unit id="tu1" xml:space="preserve">\n' +
    '<source xml:lang="en-us">Open the file. Press <g id="1">Save</g> to keep it.</source>\n' +
    '<seg-source><mrk mid="0" mtype="seg">Open the file.</mrk> <mrk mid="1" mtype="seg">' +
    'Press <g id="1">Save</g> to keep it.</mrk></seg-source>\n' +
    '<target xml:lang="de-de"><mrk mid="0" mtype="seg">Open the file.</mrk> ' +
    '<mrk mid="1" mtype="seg">Press <g id="1">Save</g> to keep it.</mrk></target>\n' +
    "</trans-unit>\n" +
    '<trans-unit id="tu2">\n' +
    '<source xml:lang="en-us">Call <mrk mtype="protected">ACME</mrk> now.</source>\n' +
    '<seg-source><mrk mtype="seg" mid="a"><x id="1"/>Call <mrk mtype="protected">ACME</mrk> ' +
    'now.</mrk><x id="2"/></seg-source>\n' +
    "</trans-unit>\n" +
    "</body>\n</file>\n</xliff>\n";
  const { texts, sent } = await translateXliff(okapi);
  assert.deepEqual(sent, [
    "Open the file.",
    "Press <x1>Save</x1> to keep it.",
    "Call <x1/> now.",
  ]);
  const segSources = (xliff: string) => xliff.match(/<seg-source>[^]*?<\/seg-source>/g);
  assert.deepEqual(segSources(texts[0]), segSources(okapi));
  assert.equal(
    texts[0],
    okapi.replace('target-language="de-de"', 'target-language="de"')
      .replace(
        '<target xml:lang="de-de"><mrk mid="0" mtype="seg">Open the file.</mrk> ' +
          '<mrk mid="1" mtype="seg">Press <g id="1">Save</g> to keep it.</mrk></target>',
        '<target xml:lang="de-de" state="translated"><mrk mid="0" mtype="seg">OPEN THE FILE.' +
          '</mrk> <mrk mid="1" mtype="seg">PRESS <g id="1">SAVE</g> TO KEEP IT.</mrk></target>',
      )
      .replace(
        '<x id="2"/></seg-source>\n',
        '<x id="2"/></seg-source>\n<target state="translated"><mrk mtype="seg" mid="a">' +
          '<x id="1"/>CALL <mrk mtype="protected">ACME</mrk> NOW.</mrk><x id="2"/></target>\n',
      ),
  );
});

Deno.test("format xml replaces an XLIFF 1.2 target, keeps final, signed-off and approved ones and translate=no units (a unit's translate=yes overrides its group's no)", async () => {
  const xliff = '<xliff version="1.2"><file source-language="en" target-language="fr" ' +
    'datatype="plaintext" original="a">\r\n<body>\r\n' +
    '\t<trans-unit id="1">\r\n\t\t<source>Open the file</source>\r\n' +
    '\t\t<target state="needs-translation">Ouvrir</target>\r\n\t</trans-unit>\r\n' +
    '\t<trans-unit id="2">\r\n\t\t<source>Close it</source>\r\n' +
    '\t\t<target xml:lang="de"/>\r\n\t</trans-unit>\r\n' +
    '\t<trans-unit id="3">\r\n\t\t<source>Done</source>\r\n' +
    '\t\t<target state="final">Fertig</target>\r\n\t</trans-unit>\r\n' +
    '\t<trans-unit id="4">\r\n\t\t<source>Signed</source>\r\n' +
    "\t\t<target state='signed-off'>Unterschrieben</target>\r\n\t</trans-unit>\r\n" +
    '\t<trans-unit id="5" approved="yes">\r\n\t\t<source>Approved</source>\r\n' +
    "\t\t<target>Genehmigt</target>\r\n\t</trans-unit>\r\n" +
    '\t<trans-unit id="6" translate="no">\r\n\t\t<source>ACME</source>\r\n\t</trans-unit>\r\n' +
    '\t<group translate="no">\r\n' +
    '\t\t<trans-unit id="7"><source>Brand</source></trans-unit>\r\n' +
    '\t\t<trans-unit id="7b" translate="yes"><source>Slogan</source></trans-unit>\r\n' +
    "\t</group>\r\n" +
    '\t<trans-unit id="8">\r\n\t\t<source>Print</source>\r\n' +
    "\t\t<alt-trans><source>Print it</source><target>Drucken</target></alt-trans>\r\n" +
    "\t</trans-unit>\r\n" +
    "</body></file></xliff>";
  const { texts, sent } = await translateXliff(xliff);
  assert.deepEqual(sent, ["Open the file", "Close it", "Slogan", "Print"]);
  assert.equal(
    texts[0],
    xliff.replace('target-language="fr"', 'target-language="de"')
      .replace(
        '<target state="needs-translation">Ouvrir</target>',
        '<target state="translated">OPEN THE FILE</target>',
      )
      .replace(
        '<target xml:lang="de"/>',
        '<target xml:lang="de" state="translated">CLOSE IT</target>',
      )
      .replace(
        "<source>Slogan</source>",
        '<source>Slogan</source><target state="translated">SLOGAN</target>',
      )
      .replace(
        "<source>Print</source>\r\n",
        '<source>Print</source>\r\n\t\t<target state="translated">PRINT</target>\r\n',
      ),
  );
});

Deno.test("format xml gives each XLIFF 2.0 segment a target and state translated, and the file its trgLang", async () => {
  const xliff = '<?xml version="1.0"?>\n' +
    '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">\n' +
    ' <file id="f1">\n' +
    '  <unit id="u1">\n' +
    "   <segment>\n" +
    "    <source>Hello there.</source>\n" +
    "   </segment>\n" +
    "   <ignorable>\n" +
    "    <source>--</source>\n" +
    "   </ignorable>\n" +
    '   <segment id="s2" state="initial">\n' +
    "    <source>How are you?</source>\n" +
    "    <target>Wie?</target>\n" +
    "   </segment>\n" +
    "  </unit>\n" +
    '  <unit id="u2">\n' +
    '   <segment state="final"><source>Done</source><target>Fertig</target></segment>\n' +
    '   <segment state="reviewed"><source>Seen</source><target>Gesehen</target></segment>\n' +
    "  </unit>\n" +
    '  <unit id="u3" translate="no">\n' +
    "   <segment><source>ACME</source></segment>\n" +
    "  </unit>\n" +
    " </file>\n" +
    "</xliff>\n";
  const { texts, sent } = await translateXliff(xliff);
  assert.deepEqual(sent, ["Hello there.", "How are you?"]);
  assert.equal(
    texts[0],
    xliff.replace('srcLang="en">', 'srcLang="en" trgLang="de">')
      .replace(
        "   <segment>\n    <source>Hello there.</source>\n",
        '   <segment state="translated">\n    <source>Hello there.</source>\n' +
          "    <target>HELLO THERE.</target>\n",
      )
      .replace('<segment id="s2" state="initial">', '<segment id="s2" state="translated">')
      .replace("<target>Wie?</target>", "<target>HOW ARE YOU?</target>"),
  );
});

Deno.test("format xml keeps an XLIFF source's inline codes in its target, native code and protected marks untranslated", async () => {
  const source12 = 'Press <x id="1"/> to <g id="2">save</g> the <bx id="3"/>file<ex id="4"/> ' +
    'with <ph id="5">&lt;br/&gt;</ph> <mrk mtype="protected" translate="no">ACME</mrk> now ' +
    '<mrk mtype="protected">Foo Inc</mrk>.';
  const target12 = 'PRESS <x id="1"/> TO <g id="2">SAVE</g> THE <bx id="3"/>FILE<ex id="4"/> ' +
    'WITH <ph id="5">&lt;br/&gt;</ph> <mrk mtype="protected" translate="no">ACME</mrk> NOW ' +
    '<mrk mtype="protected">Foo Inc</mrk>.';
  const xliff12 = '<xliff version="1.2"><file source-language="en" target-language="de" ' +
    `original="a"><body><trans-unit id="1"><source>${source12}</source></trans-unit>` +
    "</body></file></xliff>";
  const source20 = 'Click <pc id="1" dataRefStart="d1" dataRefEnd="d2">Save</pc> or ' +
    '<ph id="2" dataRef="d3"/> to <sc id="3"/>undo<ec startRef="3"/> at ' +
    '<mrk id="m1" translate="no">ACME</mrk> and <mrk id="m2" type="term">home</mrk>.';
  const target20 = 'CLICK <pc id="1" dataRefStart="d1" dataRefEnd="d2">SAVE</pc> OR ' +
    '<ph id="2" dataRef="d3"/> TO <sc id="3"/>UNDO<ec startRef="3"/> AT ' +
    '<mrk id="m1" translate="no">ACME</mrk> AND <mrk id="m2" type="term">HOME</mrk>.';
  const xliff20 = '<xliff version="2.0" srcLang="en" trgLang="de"><file id="f"><unit id="1">' +
    `<segment><source>${source20}</source></segment></unit></file></xliff>`;
  const { texts, sent } = await translateXliff(xliff12, xliff20);
  assert.deepEqual(sent, [
    "Press <x1/> to <x2>save</x2> the <x3/>file<x4/> with <x5/> <x6/> now <x7/>.",
    "Click <x1>Save</x1> or <x2/> to <x3/>undo<x4/> at <x5/> and <x6>home</x6>.",
  ]);
  assert.equal(
    texts[0],
    xliff12.replace("</source>", `</source><target state="translated">${target12}</target>`),
  );
  assert.equal(
    texts[1],
    xliff20.replace("<segment>", '<segment state="translated">')
      .replace("</source>", `</source><target>${target20}</target>`),
  );
});

Deno.test("deepl-node with tagHandling xml gets an XLIFF file back with targets, its sources as sent", async () => {
  const xliff = '<xliff version="1.2"><file source-language="en" original="a"><body>\n' +
    '  <trans-unit id="1">\n    <source>Save <g id="1">now</g>.</source>\n  </trans-unit>\n' +
    "</body></file></xliff>";
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const client = deeplClient(service);
    for (const tagHandlingVersion of ["v1", "v2"] as const) {
      const result = await client.translateText(xliff, "en", "de", {
        tagHandling: "xml",
        tagHandlingVersion,
      });
      assert.equal(
        result.text,
        xliff.replace('source-language="en"', 'source-language="en" target-language="de"')
          .replace(
            "</source>\n",
            '</source>\n    <target state="translated">SAVE <g id="1">NOW</g>.</target>\n',
          ),
      );
    }
  });
});

Deno.test("format xml reads an XLIFF file with prefixed element names by its namespace, and writes its targets with the same prefix", async () => {
  const xliff12 = '<?xml version="1.0"?>\n' +
    '<xlf:xliff xmlns:xlf="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n' +
    ' <xlf:file source-language="en" original="a"><xlf:body>\n' +
    '  <xlf:trans-unit id="1">\n   <xlf:source>Save <xlf:g id="1">now</xlf:g></xlf:source>\n' +
    "  </xlf:trans-unit>\n" +
    '  <xlf:trans-unit id="2"><xlf:source>Open</xlf:source>' +
    '<xlf:target state="new">Auf</xlf:target></xlf:trans-unit>\n' +
    " </xlf:body></xlf:file>\n</xlf:xliff>\n";
  const xliff20 = '<x:xliff xmlns:x="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">' +
    '<x:file id="f"><x:unit id="u"><x:segment><x:source>Hello</x:source></x:segment>' +
    "</x:unit></x:file></x:xliff>";
  // Another vocabulary's `xliff` element is ordinary XML: its text is translated in place.
  const other =
    '<o:xliff xmlns:o="https://example.com/not-xliff"><o:source>Hi</o:source></o:xliff>';
  const { texts, sent } = await translateUpperCased([xliff12, xliff20, other], {
    mode: "paragraph",
    format: "xml",
  });
  assert.deepEqual(sent, ["Save <x1>now</x1>", "Open", "Hello", "Hi"]);
  assert.equal(
    texts[0],
    xliff12.replace('source-language="en"', 'source-language="en" target-language="de"')
      .replace(
        "</xlf:source>\n",
        '</xlf:source>\n   <xlf:target state="translated">SAVE <xlf:g id="1">NOW</xlf:g>' +
          "</xlf:target>\n",
      )
      .replace(
        '<xlf:target state="new">Auf</xlf:target>',
        '<xlf:target state="translated">OPEN</xlf:target>',
      ),
  );
  assert.equal(
    texts[1],
    xliff20.replace('srcLang="en"', 'srcLang="en" trgLang="de"')
      .replace("<x:segment>", '<x:segment state="translated">')
      .replace("</x:source>", "</x:source><x:target>HELLO</x:target>"),
  );
  assert.equal(texts[2], other.replace(">Hi<", ">HI<"));
});

Deno.test("format xml gives an XLIFF file already in the target language targets copying its sources, as a translation tool would", async () => {
  const xliff = '<xliff version="1.2"><file source-language="de" original="a"><body>\n' +
    '  <trans-unit id="1">\n    <source>Hallo <g id="1">Welt</g></source>\n  </trans-unit>\n' +
    '  <trans-unit id="2"><source>42</source></trans-unit>\n' +
    '  <trans-unit id="3" translate="no"><source>ACME</source></trans-unit>\n' +
    "</body></file></xliff>";
  const { texts, sent } = await translateUpperCased([xliff], {
    mode: "paragraph",
    format: "xml",
    source: "de",
  });
  assert.deepEqual(sent, []);
  assert.equal(
    texts[0],
    xliff.replace('source-language="de"', 'source-language="de" target-language="de"')
      .replace(
        "</source>\n",
        '</source>\n    <target state="translated">Hallo <g id="1">Welt</g></target>\n',
      )
      .replace("<source>42</source>", '<source>42</source><target state="translated">42</target>'),
  );
});
