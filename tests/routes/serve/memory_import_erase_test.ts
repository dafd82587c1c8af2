/**
 * An import that fails leaves none of its text on the disk: the batches it wrote before failing
 * are put back in the tables, and their text must not stay in the database's files either (the
 * user was told nothing was imported, so nothing of the file should linger in tolk's data).
 */
import assert from "node:assert/strict";
import { IMPORT_BATCH } from "../../../storage/memory_store.ts";
import { databaseFilesHolding } from "../../support/bytes_search.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectError } from "../../support/http_assertions.ts";
import { syntheticSource, syntheticTmx } from "../../support/synthetic_tmx.ts";
import { withTranslationService as withService } from "../../support/translation_service.ts";

/** Pages a database of 4 KiB pages holds: room for a few import batches, not for all. */
const SMALL_DATABASE_PAGES = 600;

/** A word only the import's first unit holds: it is written by the first batch. */
const EARLY_WORD = "quokka-early-unit-5e21";

Deno.test("POST /v1/memory/import failing on a late batch leaves none of its early entries' text in the database, its -wal or its -shm", async () => {
  await withService(async (service) => {
    const tmx = syntheticTmx(4 * IMPORT_BATCH).replace(
      `<seg>${syntheticSource(0)}</seg>`,
      `<seg>${EARLY_WORD} is the first unit</seg>`,
    );
    await expectError(
      await dataRequest(service, "POST", "/v1/memory/import", tmx, {
        "content-type": "application/x-tmx+xml",
      }),
      503,
      "storage_unavailable",
    );
    assert.deepEqual(databaseFilesHolding(service.dataDir, EARLY_WORD), []);
    // Nothing of the failed import is left to find in the memory either.
    const found = await dataRequest(service, "GET", `/v1/memory/entries?q=${EARLY_WORD}`);
    assert.deepEqual((await found.json()).data, []);
  }, { database: { maxPageCount: SMALL_DATABASE_PAGES } });
});

Deno.test("POST /v1/memory/import failing on a late batch keeps an entry the user corrected while it ran", async () => {
  await withService(async (service) => {
    const source = `${EARLY_WORD} is the first unit`;
    const tmx = syntheticTmx(4 * IMPORT_BATCH).replace(
      `<seg>${syntheticSource(0)}</seg>`,
      `<seg>${source}</seg>`,
    );
    const importing = dataRequest(service, "POST", "/v1/memory/import", tmx, {
      "content-type": "application/x-tmx+xml",
    });
    // Once the first batch has written the unit, the user corrects it (another tab, a plugin):
    // the import pauses between batches so that such requests are answered.
    const find = async () =>
      (await (await dataRequest(service, "GET", `/v1/memory/entries?q=${EARLY_WORD}`)).json())
        .data;
    while ((await find()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const corrected = await dataRequest(service, "POST", "/v1/memory/entries", {
      source_lang: "en",
      target_lang: "de",
      entries: [{ source, target: "the user's own correction" }],
    });
    assert.equal(corrected.status, 201, await corrected.text());
    await expectError(await importing, 503, "storage_unavailable");
    const [entry] = await find();
    assert.equal(entry?.target, "the user's own correction", "the answered write is kept");
  }, { database: { maxPageCount: SMALL_DATABASE_PAGES } });
});
