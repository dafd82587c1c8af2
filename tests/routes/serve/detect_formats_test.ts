/**
 * With `source: "auto"`, a marked-up item is detected by the words its reader sees: an HTML
 * page's text and shown attributes, not its scripts, styles, comments, code or addresses; a
 * Markdown item's prose, not its code, URLs or front matter keys; an XLIFF file's sources, not
 * its targets or notes. Each text's markup is written in English, its prose in another language.
 * Over HTTP on loopback, engine-one a stand-in; texts written for this test.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withOnlyStandIn } from "../../support/stand_in_service.ts";
import { postTranslate, type TestService } from "../../support/translation_service.ts";

interface Case {
  text: string;
  language: string;
}

async function detectedSources(service: TestService, format: string, cases: readonly Case[]) {
  const texts = cases.map((c) => c.text);
  const response = await postTranslate(service, { source: "auto", target: "ko", format, texts });
  const body = await expectBody(response, 200, TranslateResponseSchema);
  return body.results.map((result, i) => `${texts[i]} → ${result.detected_source}`);
}

function expected(cases: readonly Case[]): string[] {
  return cases.map((c) => `${c.text} → ${c.language}`);
}

/** English markup, code and attributes no reader sees, words in another language. */
const ENGLISH = "this is the english text for the home page of the site, kept for the team";

const HTML_CASES: Case[] = [
  {
    text: `<p>Bonjour à tous !</p><script>const message = '${ENGLISH}';</script>`,
    language: "fr",
  },
  {
    text:
      "<style>.the-main-navigation-menu { color: white; }</style><p>Hola a todos, ¿qué tal?</p>",
    language: "es",
  },
  { text: `<!-- ${ENGLISH} --><p>Guten Morgen, wie geht es euch?</p>`, language: "de" },
  {
    text: `<a href="https://example.com/${ENGLISH.replaceAll(" ", "-")}" class="the-link-to-` +
      'the-english-weather-report-page">Le temps</a>',
    language: "fr",
  },
  {
    text: "<p>Bitte führen Sie diesen Befehl aus:</p><pre><code>print the report for the user " +
      "and then send it to the English team</code></pre>",
    language: "de",
  },
  {
    text: '<p translate="no">This is the name of the English product</p><p>Muchas gracias.</p>',
    language: "es",
  },
  {
    text: "<p>Utilisez <code>print_the_english_report_for_the_user()</code> pour imprimer.</p>",
    language: "fr",
  },
  { text: `<p>Bonjour</p><p data-text="${ENGLISH}">Merci</p>`, language: "fr" },
  { text: `<p>Hallo <span class="notranslate">${ENGLISH}</span></p>`, language: "de" },
];

const MARKDOWN_CASES: Case[] = [
  { text: `Führen Sie den folgenden Befehl aus:\n\n\`\`\`\n${ENGLISH}\n\`\`\`\n`, language: "de" },
  { text: `    ${ENGLISH}\n\nHallo zusammen!\n`, language: "de" },
  {
    text:
      `---\ntitle: ${ENGLISH}\ndescription: The English page\n---\n\nHallo zusammen, wie geht ` +
      "es euch?\n",
    language: "de",
  },
  {
    text: `Bonjour à tous.\n\n<script>\nconst greeting = "${ENGLISH}";\n</script>\n`,
    language: "fr",
  },
  { text: `Bonjour à tous.\n\n<!-- ${ENGLISH} -->\n`, language: "fr" },
  { text: `Die Formel lautet:\n\n$$\n\\text{${ENGLISH}}\n$$\n`, language: "de" },
  {
    text: `Voir la page.\n\n[ref]: https://example.com/the-english-page "${ENGLISH}"\n`,
    language: "fr",
  },
];

/** XLIFF files (sources only), a .resx and an Android file, a comment in XML. */
const XML_CASES: Case[] = [
  {
    text: '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n' +
      '<file source-language="de" target-language="en" datatype="plaintext" original="a.txt">' +
      "<body>\n" +
      '<trans-unit id="1"><source>Guten Morgen</source>' +
      "<target>Good morning, this is the English translation of the greeting</target>" +
      "<note>This note tells the English translators what the greeting is for</note>" +
      "</trans-unit>\n</body></file></xliff>\n",
    language: "de",
  },
  {
    text: '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="fr" ' +
      'trgLang="en"><file id="f1"><unit id="u1"><notes><note>This note tells the English ' +
      "translators what the greeting is for</note></notes><segment><source>Bonjour à " +
      "tous</source><target>Hello everyone, this is the English translation</target></segment>" +
      "</unit></file></xliff>\n",
    language: "fr",
  },
  {
    text: '<?xml version="1.0" encoding="utf-8"?>\n<root>\n<resheader name="resmimetype">' +
      '<value>text/microsoft-resx</value></resheader>\n<resheader name="reader"><value>' +
      "System.Resources.ResXResourceReader, System.Windows.Forms</value></resheader>\n" +
      `<data name="Greeting" xml:space="preserve"><value>Hallo</value><comment>${ENGLISH}` +
      "</comment></data>\n</root>",
    language: "de",
  },
  {
    text: `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n<!-- ${ENGLISH} -->\n` +
      `<string name="app_name" translatable="false">${ENGLISH}</string>\n` +
      '<string name="hello">Bonjour à tous</string>\n</resources>',
    language: "fr",
  },
  { text: `<root><p>Bonjour</p><!-- ${ENGLISH} --></root>`, language: "fr" },
];

for (
  const [format, cases] of [
    ["html", HTML_CASES],
    ["markdown", MARKDOWN_CASES],
    ["xml", XML_CASES],
  ] as const
) {
  Deno.test(`POST /v1/translate detects a ${format} item by what its reader sees`, async () => {
    await withOnlyStandIn({}, async (service) => {
      assert.deepEqual(await detectedSources(service, format, cases), expected(cases));
    });
  });
}
