/**
 * A deleted history row is gone from the disk, not only from the list: neither the database file
 * nor its write-ahead log holds its text afterwards (a privacy user deletes to be rid of it). The
 * same holds for a memory entry and a glossary.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { openDataStores } from "../../../storage/data_stores.ts";
import { DATABASE_FILE } from "../../../storage/database.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { historyEntry } from "../../support/history_entries.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { runTolkProcess } from "../../support/tolk_process.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";
import { indexOfBytes } from "../../support/bytes_search.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { addUserEntry } from "../../support/memory_requests.ts";

/** A short text (in its row's page) and a long one (in overflow pages of its own). */
const SHORT = "erase-me-short-7f3a";
const LONG = `erase-me-long-9c1b ${"confidential paragraph ".repeat(300)}`;

/** Which of the database file of `dataDir` and its log hold `text` (ASCII: as JSON stores it). */
function onDisk(dataDir: string, text: string): string[] {
  const needle = new TextEncoder().encode(text);
  return [DATABASE_FILE, `${DATABASE_FILE}-wal`].filter((name) => {
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(join(dataDir, name));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
    return indexOfBytes(bytes, needle) >= 0;
  });
}

/** Translates the two texts (en → en: no engine) and returns the history row's id. */
async function recordSecret(service: TestService): Promise<string> {
  const response = await postTranslate(service, {
    source: "en",
    target: "en",
    texts: [SHORT, LONG],
  });
  assert.equal(response.status, 200, await response.text());
  const page = await expectBody(
    await dataRequest(service, "GET", "/v1/history"),
    200,
    HistoryPageSchema,
  );
  return page.data[0].id;
}

const ERASE_CASES: { name: string; path: (id: string) => string; checkpointed: boolean }[] = [
  {
    name: "DELETE /v1/history/{id}, row in the log",
    path: (id) => `/v1/history/${id}`,
    checkpointed: false,
  },
  {
    name: "DELETE /v1/history/{id}, row in the file",
    path: (id) => `/v1/history/${id}`,
    checkpointed: true,
  },
  { name: "DELETE /v1/history, row in the log", path: () => "/v1/history", checkpointed: false },
  { name: "DELETE /v1/history, row in the file", path: () => "/v1/history", checkpointed: true },
];

for (const { name, path, checkpointed } of ERASE_CASES) {
  Deno.test(`${name} leaves none of its text in the database file or its log`, async () => {
    await withService(async (service) => {
      const id = await recordSecret(service);
      // As SQLite does on its own once the log is long: the row moves into the file.
      if (checkpointed) service.stores.database.db.exec("pragma wal_checkpoint(truncate);");
      assert.notDeepEqual(onDisk(service.dataDir, SHORT), [], "the row was written at all");
      const deleted = await dataRequest(service, "DELETE", path(id));
      assert.equal(deleted.status, 204, await deleted.text());
      assert.deepEqual(onDisk(service.dataDir, SHORT), [], "the short text");
      assert.deepEqual(onDisk(service.dataDir, "erase-me-long-9c1b"), [], "the long text");
    });
  });
}

Deno.test("tolk history clear leaves none of the texts in the database file or its log", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-data-erase-" });
  try {
    const stores = openDataStores(dataDir);
    stores.history.record(historyEntry(1, { texts: [SHORT, LONG] }));
    stores.close();
    assert.deepEqual(onDisk(dataDir, SHORT), [DATABASE_FILE], "the row was written at all");
    const cleared = await runTolkProcess(["history", "clear", "--data-dir", dataDir]);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.deepEqual(onDisk(dataDir, SHORT), []);
    assert.deepEqual(onDisk(dataDir, "erase-me-long-9c1b"), []);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

/** The other stores' deletes erase as the history's do: a user entry, a glossary. */
const OTHER_CASES: { name: string; make: (service: TestService) => Promise<string> }[] = [
  {
    name: "DELETE /v1/memory/entries/{id}",
    make: async (service) => {
      await addUserEntry(service, SHORT, "Ziel");
      const list = await dataRequest(service, "GET", "/v1/memory/entries");
      return `/v1/memory/entries/${(await list.json()).data[0].id}`;
    },
  },
  {
    name: "DELETE /v1/glossaries/{id}",
    make: async (service) => {
      const { glossary_id } = await createGlossary(
        service,
        "Erase",
        ["en", "de"],
        `${SHORT}\tZiel\n`,
      );
      return `/v1/glossaries/${glossary_id}`;
    },
  },
];

for (const { name, make } of OTHER_CASES) {
  Deno.test(`${name} leaves none of its text in the database file or its log`, async () => {
    await withService(async (service) => {
      const path = await make(service);
      assert.notDeepEqual(onDisk(service.dataDir, SHORT), [], "the text was written at all");
      const deleted = await dataRequest(service, "DELETE", path);
      assert.equal(deleted.status, 204, await deleted.text());
      assert.deepEqual(onDisk(service.dataDir, SHORT), []);
    });
  });
}
