/**
 * Entries as spreadsheets export them, through POST /v1/glossaries and GET .../entries: a first
 * row of column headings, and Excel's "Unicode text" (UTF-16 with a byte order mark, tabs, and
 * fields quoted with their quotes doubled).
 */
import assert from "node:assert/strict";
import { GlossaryEntriesSchema, GlossarySchema } from "../../../schemas/glossary.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { type TestService, withTranslationService } from "../../support/translation_service.ts";

/** Creates an en → de glossary of `entries` and gives its entries back as stored (TSV). */
async function storedEntries(service: TestService, entries: string, format: "tsv" | "csv") {
  const glossary = await expectBody(
    await dataRequest(service, "POST", "/v1/glossaries", {
      name: "Sheet",
      dictionaries: [{ source_lang: "en", target_lang: "de", entries, entries_format: format }],
    }),
    201,
    GlossarySchema,
  );
  const body = await expectBody(
    await dataRequest(service, "GET", `/v1/glossaries/${glossary.glossary_id}/entries`),
    200,
    GlossaryEntriesSchema,
  );
  return body.dictionaries[0].entries;
}

/** The bytes of Excel's "Unicode text": UTF-16 little-endian after a byte order mark. */
function utf16le(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    bytes.set([text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8], 2 + 2 * i);
  }
  return bytes;
}

interface SheetCase {
  name: string;
  format: "tsv" | "csv";
  entries: string;
  stored: string;
}

const SHEETS: SheetCase[] = [
  {
    name: "a CSV whose first row is the headings source,target",
    format: "csv",
    entries: "source,target\r\ndatabase,Datenbank\r\n",
    stored: "database\tDatenbank\n",
  },
  {
    name: "a CSV whose first row names the dictionary's languages (en,de)",
    format: "csv",
    entries: "\uFEFFen,de\r\ndatabase,Datenbank\r\n",
    stored: "database\tDatenbank\n",
  },
  {
    name: "a CSV whose first row names them with regions and in capitals (EN-US;DE-DE)",
    format: "csv",
    entries: "EN-US;DE-DE\r\ndatabase;Datenbank\r\n",
    stored: "database\tDatenbank\n",
  },
  {
    name: "a CSV whose first row names the languages in English (English,German)",
    format: "csv",
    entries: "English,German\ndatabase,Datenbank\n",
    stored: "database\tDatenbank\n",
  },
  {
    name: "a TSV whose first row, after blank lines, is Term and Translation",
    format: "tsv",
    entries: '\n"Term"\t"Translation"\ndatabase\tDatenbank\n',
    stored: "database\tDatenbank\n",
  },
  {
    name: "headings only on the first row: source,target further down is an entry",
    format: "csv",
    entries: "database,Datenbank\nsource,target\n",
    stored: "database\tDatenbank\nsource\ttarget\n",
  },
  {
    name: "languages in the other order (de,en) on the first row, which is an entry",
    format: "csv",
    entries: "de,en\ndatabase,Datenbank\n",
    stored: "de\ten\ndatabase\tDatenbank\n",
  },
  {
    name: "a TSV field quoted whole, its quotes doubled (Excel's tab-separated text)",
    format: "tsv",
    entries: '"say ""hi"""\t"sag ""hallo"", bitte"\n""""\t""\n',
    stored: 'say "hi"\tsag "hallo", bitte\n"\t\n',
  },
  {
    name: "a TSV field with quotes that is not quoted whole, read as written",
    format: "tsv",
    entries: '5" disk\t5"-Diskette\n"Save" button\t"Sichern"-Knopf\n',
    stored: '5" disk\t5"-Diskette\n"Save" button\t"Sichern"-Knopf\n',
  },
];

for (const c of SHEETS) {
  Deno.test(`POST /v1/glossaries reads ${c.name}`, async () => {
    await withTranslationService(async (service) => {
      assert.equal(await storedEntries(service, c.entries, c.format), c.stored);
    });
  });
}

Deno.test("POST /v1/glossaries reads Excel's Unicode text (UTF-16 LE, headings, quoted fields) as its terms", async () => {
  const sheet = 'English\tGerman\r\n"say ""hi"""\t"sag ""hallo"""\r\n' +
    '"New York, NY"\tNeuyork\r\nMüller\t"Müller"\r\n';
  // What a client that decodes the file by its byte order mark sends (TextDecoder keeps the mark
  // here, as some readers do: the parser drops it).
  const text = new TextDecoder("utf-16le", { ignoreBOM: true }).decode(utf16le("\uFEFF" + sheet));
  await withTranslationService(async (service) => {
    assert.equal(
      await storedEntries(service, text, "tsv"),
      'say "hi"\tsag "hallo"\nNew York, NY\tNeuyork\nMüller\tMüller\n',
    );
  });
});
