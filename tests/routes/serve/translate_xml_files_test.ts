/**
 * `format: "xml"` over HTTP with whole files localisation tools keep in XML (Android's
 * strings.xml, XLIFF, DITA): what a file marks as not to be translated is never sent and comes
 * back byte for byte.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

async function translateXml(item: string) {
  const { texts, sent } = await translateUpperCased([item], { mode: "paragraph", format: "xml" });
  return { text: texts[0], sent };
}

Deno.test('format xml keeps an Android string marked translatable="false" as written', async () => {
  const item = '<resources>\n  <string name="app_name" translatable="false">Notes</string>\n' +
    "  <string-array name=\"units\" translatable = 'false'><item>km</item></string-array>\n" +
    '  <string name="hello">Hello there</string>\n</resources>';
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Hello there"]);
  assert.equal(text, item.replace("Hello there", "HELLO THERE"));
});

Deno.test('format xml keeps elements marked translate="no" (XLIFF, DITA, ITS) as written', async () => {
  const item =
    '<body>\n <trans-unit id="1" translate="no"><source>ACME Corp</source></trans-unit>\n' +
    ' <p>Open <ph translate="no">Settings</ph> and <b its:translate="no">Save</b> now.</p>\n' +
    " <p title=\"translate='no'\">Read this.</p>\n</body>";
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Open <x1/> and <x2/> now.", "Read this."]);
  assert.equal(
    text,
    item.replace("Open", "OPEN").replace(" and ", " AND ").replace("now.", "NOW.")
      .replace("Read this.", "READ THIS."),
  );
});
