/**
 * A data directory written at each earlier schema version, built with the real migrations up to
 * that version and holding rows of every table it had, is opened by the current service: every
 * row is there through the API, and new writes beside them work.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { GlossaryEntriesSchema } from "../../../schemas/glossary.ts";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { MemoryPageSchema } from "../../../schemas/memory.ts";
import { DATABASE_FILE } from "../../../storage/database.ts";
import { MIGRATIONS } from "../../../storage/migrations/migrations.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { addUserEntry, translateWithMemory } from "../../support/memory_requests.ts";
import { withTempDir } from "../../support/temp_dir.ts";
import { type TestService, withTranslationService } from "../../support/translation_service.ts";

const GLOSSARY_ID = "00000000-0000-4000-8000-0000000000aa";
const HISTORY_ID = "tr_00000000-0000-4000-8000-0000000000bb";

/** A database at schema `version` (real migrations), with rows of each table it had then. */
function writeOldDatabase(path: string, version: number): void {
  const old = new DatabaseSync(path);
  for (const migration of MIGRATIONS.filter((step) => step.version <= version)) {
    old.exec(migration.sql);
    migration.run?.(old);
  }
  old.exec(`pragma user_version = ${version};`);
  old.prepare(
    `insert into translation_history (id, created, client, engine, model, source, target, texts,
     translations) values (?, 1800000000, 'old-client', 'local-llm', 'm', 'en', 'de', ?, ?)`,
  ).run(HISTORY_ID, JSON.stringify(["old text"]), JSON.stringify(["alter Text"]));
  if (version >= 3) {
    old.prepare("insert into glossaries (id, name, created) values (?, 'Old', 0)").run(GLOSSARY_ID);
    old.prepare("insert into glossary_dictionaries values (?, 'en', 'de')").run(GLOSSARY_ID);
    old.prepare("insert into glossary_entries values (?, 'en', 'de', 0, 'tolk', 'Tolk')")
      .run(GLOSSARY_ID);
  }
  if (version >= 4) {
    const insert = old.prepare(
      `insert into memory_entries (source_lang, target_lang, key, source, target, origin, length,
       created) values ('en', 'de', ?, ?, ?, 'user', ?, 1800000000)`,
    );
    // Keys as releases before migration 9 wrote them: every gap of white space one space.
    insert.run("Good morning", "Good morning", "Guten Morgen", 12);
    insert.run("Good night", "Good\nnight", "Gute\nNacht", 10);
  }
  old.close();
}

/** The rows of every table the version had, through the API. */
async function assertKept(service: TestService, version: number): Promise<void> {
  const history = await expectBody(
    await dataRequest(service, "GET", "/v1/history"),
    200,
    HistoryPageSchema,
  );
  const row = history.data.find((entry) => entry.id === HISTORY_ID);
  assert.deepEqual(
    row && [row.client, row.texts, row.translations, row.mode, row.format],
    ["old-client", ["old text"], ["alter Text"], "paragraph", "text"],
  );
  if (version >= 3) {
    const entries = await expectBody(
      await dataRequest(service, "GET", `/v1/glossaries/${GLOSSARY_ID}/entries`),
      200,
      GlossaryEntriesSchema,
    );
    assert.equal(entries.dictionaries[0]?.entries, "tolk\tTolk\n");
  }
  if (version >= 4) {
    const memory = await expectBody(
      await dataRequest(service, "GET", "/v1/memory/entries?source_lang=en&target_lang=de"),
      200,
      MemoryPageSchema,
    );
    assert.deepEqual(memory.data.map((entry) => entry.source).sort(), [
      "Good\nnight",
      "Good morning",
    ]);
    const answer = await translateWithMemory(service, ["Good morning", "Good\nnight"]);
    assert.deepEqual(answer.results.map((item) => item.text), [
      "Guten Morgen",
      "Gute\nNacht",
    ]);
  }
}

for (const { version } of MIGRATIONS.slice(0, -1)) {
  Deno.test(`a database at schema ${version} keeps every row through the current service, and takes new ones`, async () => {
    await withTempDir("tolk-schema-upgrade-", async (dataDir) => {
      writeOldDatabase(join(dataDir, DATABASE_FILE), version);
      await withTranslationService(async (service) => {
        await assertKept(service, version);
        if (version >= 4) {
          await addUserEntry(service, "Good evening", "Guten Abend");
          const answer = await translateWithMemory(service, ["Good evening"]);
          assert.equal(answer.results[0].text, "Guten Abend");
        }
        const deleted = await dataRequest(service, "DELETE", `/v1/history/${HISTORY_ID}`);
        assert.equal(deleted.status, 204);
      }, { dataDir });
      // Opened again at the newest schema: nothing is migrated twice or lost.
      await withTranslationService(async (service) => {
        const history = await expectBody(
          await dataRequest(service, "GET", "/v1/history"),
          200,
          HistoryPageSchema,
        );
        assert.equal(history.data.some((entry) => entry.id === HISTORY_ID), false);
      }, { dataDir });
    });
  });
}
