/**
 * A TMX import that cannot be written whole (the disk or the database fills up after some of its
 * batches) leaves the memory as it was: no half import, and no entry it replaced changed.
 */
import assert from "node:assert/strict";
import { MemoryPageSchema } from "../../../schemas/memory.ts";
import { IMPORT_BATCH } from "../../../storage/memory_store.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { syntheticSource, syntheticTmx } from "../../support/synthetic_tmx.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

/** Pages a database of 4 KiB pages holds: room for a few import batches, not for all. */
const SMALL_DATABASE_PAGES = 600;
const UNITS = 4 * IMPORT_BATCH;

async function stored(service: TestService): Promise<string[][]> {
  const pairs: string[][] = [];
  for (let cursor = "";;) {
    const page = await expectBody(
      await dataRequest(service, "GET", `/v1/memory/entries?limit=200${cursor}`),
      200,
      MemoryPageSchema,
    );
    pairs.push(...page.data.map((entry) => [entry.source, entry.target, entry.origin]));
    if (page.next_cursor === null) return pairs;
    cursor = `&cursor=${page.next_cursor}`;
  }
}

Deno.test("POST /v1/memory/import that fills the database after some batches answers 503 and leaves the memory as it was", async () => {
  await withService(async (service) => {
    const added = await dataRequest(service, "POST", "/v1/memory/entries", {
      source_lang: "en",
      target_lang: "de",
      entries: [{ source: syntheticSource(1), target: "Vorher" }, {
        source: "Keep",
        target: "Bleib",
      }],
    });
    assert.equal(added.status, 201);
    const before = await stored(service);
    await expectError(
      await dataRequest(service, "POST", "/v1/memory/import", syntheticTmx(UNITS), {
        "content-type": "application/x-tmx+xml",
      }),
      503,
      "storage_unavailable",
    );
    assert.deepEqual(await stored(service), before);
  }, { database: { maxPageCount: SMALL_DATABASE_PAGES } });
});
