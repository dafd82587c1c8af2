/**
 * Entries as spreadsheets and editors write them (DECISIONS.md, "Glossaries"): a byte order
 * mark, any line ending, and source terms that matching reads as one, through
 * POST /v1/glossaries and GET /v1/glossaries/{id}/entries.
 */
import assert from "node:assert/strict";
import { GlossaryEntriesSchema, GlossarySchema } from "../../../schemas/glossary.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { type TestService, withTranslationService } from "../../support/translation_service.ts";

async function createEntries(service: TestService, entries: string, format: "tsv" | "csv") {
  return await dataRequest(service, "POST", "/v1/glossaries", {
    name: "Input",
    dictionaries: [{ source_lang: "en", target_lang: "de", entries, entries_format: format }],
  });
}

interface AcceptedCase {
  name: string;
  format: "tsv" | "csv";
  entries: string;
  /** The entries as GET .../entries gives them back (TSV). */
  stored: string;
}

const ACCEPTED: AcceptedCase[] = [
  {
    // Excel's "CSV UTF-8" starts with a byte order mark, and quotes a field holding a comma.
    name: "CSV with a byte order mark before a quoted field",
    format: "csv",
    entries: '\uFEFF"New York, NY",Neuyork\r\ndatabase,Datenbank\r\n',
    stored: "New York, NY\tNeuyork\ndatabase\tDatenbank\n",
  },
  {
    name: "TSV with a byte order mark",
    format: "tsv",
    entries: "\uFEFFdatabase\tDatenbank\n",
    stored: "database\tDatenbank\n",
  },
  {
    name: "TSV with CRLF line ends and blank lines",
    format: "tsv",
    entries: "\r\na\tb\r\n\r\nc\t\r\n",
    stored: "a\tb\nc\t\n",
  },
  {
    // Classic Mac line ends, which CSV already reads.
    name: "TSV with CR line ends",
    format: "tsv",
    entries: "a\tb\rc\td\r",
    stored: "a\tb\nc\td\n",
  },
  {
    name: "CSV with doubled quotes and commas inside quoted fields",
    format: "csv",
    entries: '"say ""hi""","sag ""hallo"", bitte"\n',
    stored: 'say "hi"\tsag "hallo", bitte\n',
  },
];

for (const c of ACCEPTED) {
  Deno.test(`POST /v1/glossaries reads ${c.name}`, async () => {
    await withTranslationService(async (service) => {
      const glossary = await expectBody(
        await createEntries(service, c.entries, c.format),
        201,
        GlossarySchema,
      );
      const entries = await expectBody(
        await dataRequest(service, "GET", `/v1/glossaries/${glossary.glossary_id}/entries`),
        200,
        GlossaryEntriesSchema,
      );
      assert.equal(entries.dictionaries[0].entries, c.stored);
    });
  });
}

/** Source terms that are one term to the matcher: a second one could never apply. */
const DUPLICATES: [string, string][] = [
  ["the same words apart by more white space", "New York\tA\nNew  York\tB\n"],
  ["a typographic and an ASCII apostrophe", "don't\tA\ndon\u2019t\tB\n"],
  ["a non-breaking hyphen and an ASCII one", "e-mail\tA\ne\u2011mail\tB\n"],
  ["the same term in another case", "Apple\tA\napple\tB\n"],
];

for (const [name, entries] of DUPLICATES) {
  Deno.test(`POST /v1/glossaries refuses source terms that match alike: ${name}`, async () => {
    await withTranslationService(async (service) => {
      const response = await createEntries(service, entries, "tsv");
      const error = await expectError(response, 400, "invalid_request", "dictionaries[0].entries");
      assert.match(error.error.message, /line 2: .*already appears on line 1/);
    });
  });
}
