/**
 * Removing one language pair of a glossary is its own request
 * (`DELETE /v1/glossaries/{id}/dictionaries?source_lang=&target_lang=`): a PATCH whose entries
 * hold no entry is a 400, so an empty file uploaded by mistake never deletes a user's terms.
 */
import assert from "node:assert/strict";
import { GlossarySchema } from "../../../schemas/glossary.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

const EN_DE = {
  source_lang: "en",
  target_lang: "de",
  entries: "database\tDatenbank\n",
  entries_format: "tsv",
};
const EN_JA = { ...EN_DE, target_lang: "ja", entries: "database\tデータベース\n" };

async function create(service: TestService) {
  return await expectBody(
    await dataRequest(service, "POST", "/v1/glossaries", {
      name: "Terms",
      dictionaries: [EN_DE, EN_JA],
    }),
    201,
    GlossarySchema,
  );
}

/** Entries texts that hold no entry, as an empty or blank file reads. */
const EMPTY_UPLOADS: { name: string; entries: string; format: "tsv" | "csv" }[] = [
  { name: "an empty text", entries: "", format: "tsv" },
  { name: "blank lines", entries: "\n\n  \n", format: "tsv" },
  { name: "a byte order mark and CRLF (an empty Excel CSV)", entries: "\uFEFF\r\n", format: "csv" },
];

for (const { name, entries, format } of EMPTY_UPLOADS) {
  Deno.test(`PATCH /v1/glossaries/{id} refuses a dictionary of ${name} and keeps the pair`, async () => {
    await withService(async (service) => {
      const glossary = await create(service);
      const error = await expectError(
        await dataRequest(service, "PATCH", `/v1/glossaries/${glossary.glossary_id}`, {
          dictionaries: [{ ...EN_JA, entries, entries_format: format }],
        }),
        400,
        "invalid_request",
        "dictionaries[0].entries",
      );
      assert.match(error.error.message, /no entries/);
      const after = await expectBody(
        await dataRequest(service, "GET", `/v1/glossaries/${glossary.glossary_id}`),
        200,
        GlossarySchema,
      );
      assert.deepEqual(after, glossary);
    });
  });
}

Deno.test("DELETE /v1/glossaries/{id}/dictionaries removes one pair, then that pair is 404", async () => {
  await withService(async (service) => {
    const { glossary_id: id } = await create(service);
    const path = `/v1/glossaries/${id}/dictionaries?source_lang=en&target_lang=ja`;
    const deleted = await dataRequest(service, "DELETE", path);
    assert.equal(deleted.status, 204);
    assert.equal(await deleted.text(), "");
    const after = await expectBody(
      await dataRequest(service, "GET", `/v1/glossaries/${id}`),
      200,
      GlossarySchema,
    );
    assert.deepEqual(after.dictionaries.map((d) => d.target_lang), ["de"]);
    await expectError(await dataRequest(service, "DELETE", path), 404, "not_found", "target_lang");
  });
});

Deno.test("DELETE /v1/glossaries/{id}/dictionaries needs both languages and a known glossary", async () => {
  await withService(async (service) => {
    const { glossary_id: id } = await create(service);
    await expectError(
      await dataRequest(service, "DELETE", `/v1/glossaries/${id}/dictionaries?source_lang=en`),
      400,
      "invalid_request",
      "target_lang",
    );
    await expectError(
      await dataRequest(
        service,
        "DELETE",
        `/v1/glossaries/${id}/dictionaries?source_lang=en&target_lang=xx`,
      ),
      422,
      "unsupported_language",
      "target_lang",
    );
    await expectError(
      await dataRequest(
        service,
        "DELETE",
        "/v1/glossaries/nope/dictionaries?source_lang=en&target_lang=de",
      ),
      404,
      "not_found",
      "glossary_id",
    );
    const after = await expectBody(
      await dataRequest(service, "GET", `/v1/glossaries/${id}`),
      200,
      GlossarySchema,
    );
    assert.equal(after.dictionaries.length, 2);
  });
});
