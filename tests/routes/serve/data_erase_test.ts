/**
 * A deleted history row is gone from the disk, not only from the list: neither the database file
 * nor its write-ahead log holds its text afterwards (a privacy user deletes to be rid of it). The
 * same holds for a memory entry and a glossary, and for text a write replaced: a corrected term,
 * a renamed glossary, a remembered translation made again.
 */
import assert from "node:assert/strict";
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
import { databaseFilesHolding as onDisk } from "../../support/bytes_search.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { addUserEntry, translateWithMemory } from "../../support/memory_requests.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

/** A short text (in its row's page) and a long one (in overflow pages of its own). */
const SHORT = "erase-me-short-7f3a";
const LONG = `erase-me-long-9c1b ${"confidential paragraph ".repeat(300)}`;

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

/** The text a replacing write removes, and the one it writes instead. */
const OLD = "erase-me-old-term-4d2e";
const NEW = "kept-new-term-81f0";

/** A request with the DeepL key of `service` (its routes take no x-svc-token). */
function deepLRequest(service: TestService, method: string, path: string, body: unknown) {
  return fetch(`${service.url}/v1/compat/deepl/v3/glossaries${path}`, {
    method,
    headers: {
      authorization: `DeepL-Auth-Key ${service.token}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
}

/** A glossary whose en → de dictionary translates "tolk" as {@link OLD}; resolves to its id. */
async function oldTermGlossary(service: TestService): Promise<string> {
  return (await createGlossary(service, "Terms", ["en", "de"], `tolk\t${OLD}\n`)).glossary_id;
}

const REPLACE_CASES: {
  name: string;
  replace: (service: TestService) => Promise<Response>;
}[] = [
  {
    name: "PATCH /v1/glossaries/{id} replacing a dictionary",
    replace: async (service) =>
      dataRequest(service, "PATCH", `/v1/glossaries/${await oldTermGlossary(service)}`, {
        dictionaries: [{
          source_lang: "en",
          target_lang: "de",
          entries: `tolk\t${NEW}\n`,
          entries_format: "tsv",
        }],
      }),
  },
  {
    name: "PATCH /v1/glossaries/{id} renaming it",
    replace: async (service) => {
      const { glossary_id } = await createGlossary(service, OLD, ["en", "de"], "tolk\ttolk\n");
      return dataRequest(service, "PATCH", `/v1/glossaries/${glossary_id}`, { name: NEW });
    },
  },
  {
    name: "DELETE /v1/glossaries/{id}/dictionaries",
    replace: async (service) => {
      const id = await oldTermGlossary(service);
      const added = await dataRequest(service, "PATCH", `/v1/glossaries/${id}`, {
        dictionaries: [{
          source_lang: "en",
          target_lang: "fr",
          entries: `tolk\t${NEW}\n`,
          entries_format: "tsv",
        }],
      });
      assert.equal(added.status, 200, await added.text());
      return dataRequest(
        service,
        "DELETE",
        `/v1/glossaries/${id}/dictionaries?source_lang=en&target_lang=de`,
      );
    },
  },
  {
    name: "PUT /v1/compat/deepl/v3/glossaries/{id}/dictionaries",
    replace: async (service) =>
      deepLRequest(service, "PUT", `/${await oldTermGlossary(service)}/dictionaries`, {
        source_lang: "en",
        target_lang: "de",
        entries: `tolk\t${NEW}`,
        entries_format: "tsv",
      }),
  },
  {
    name: "PATCH /v1/compat/deepl/v3/glossaries/{id} merging a new target for a term",
    replace: async (service) =>
      deepLRequest(service, "PATCH", `/${await oldTermGlossary(service)}`, {
        dictionaries: [{
          source_lang: "en",
          target_lang: "de",
          entries: `tolk\t${NEW}`,
          entries_format: "tsv",
        }],
      }),
  },
  {
    name: "POST /v1/memory/entries correcting a user entry",
    replace: async (service) => {
      await addUserEntry(service, "Good morning", OLD);
      return dataRequest(service, "POST", "/v1/memory/entries", {
        source_lang: "en",
        target_lang: "de",
        entries: [{ source: "Good morning", target: NEW }],
      });
    },
  },
];

for (const { name, replace } of REPLACE_CASES) {
  Deno.test(`${name} leaves none of the text it replaced in the database file or its log`, async () => {
    await withService(async (service) => {
      const response = await replace(service);
      assert.ok(response.ok, `${response.status} ${await response.text()}`);
      assert.notDeepEqual(onDisk(service.dataDir, NEW), [], "the new text was written");
      assert.deepEqual(onDisk(service.dataDir, OLD), []);
    });
  });
}

Deno.test("an engine's remembered translation made again under a new context leaves none of the old one in the database file or its log", async () => {
  let answer = OLD;
  await withStandInService({ translate: () => answer }, async (service) => {
    // The history would keep the first translation as it was asked: that is its record, not the
    // memory's.
    service.store.update((settings) => {
      settings.history.enabled = false;
    });
    await translateWithMemory(service, ["Good morning"]);
    assert.notDeepEqual(onDisk(service.dataDir, OLD), [], "the first translation was remembered");
    answer = NEW;
    // Another steering: the engine is asked again, and its entry replaces the first one.
    await translateWithMemory(service, ["Good morning"], { tone: "formal" });
    assert.notDeepEqual(onDisk(service.dataDir, NEW), [], "the second translation was remembered");
    assert.deepEqual(onDisk(service.dataDir, OLD), []);
  });
});
