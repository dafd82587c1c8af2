/**
 * Memory entry ids are never handed out twice: a client holding the id (or a page cursor) of a
 * deleted entry never reaches another one. Databases written before migration 7 keep every
 * entry, its id and its fuzzy index.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { AddMemoryResponseSchema, MemoryPageSchema } from "../../../schemas/memory.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { DATABASE_FILE } from "../../../storage/database.ts";
import { MemoryStore } from "../../../storage/memory_store.ts";
import { MIGRATIONS } from "../../../storage/migrations/migrations.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

async function add(service: TestService, source: string, target: string) {
  await expectBody(
    await dataRequest(service, "POST", "/v1/memory/entries", {
      source_lang: "en",
      target_lang: "de",
      entries: [{ source, target }],
    }),
    201,
    AddMemoryResponseSchema,
  );
}

async function list(service: TestService, query = "") {
  return (await expectBody(
    await dataRequest(service, "GET", `/v1/memory/entries${query}`),
    200,
    MemoryPageSchema,
  ));
}

async function idOf(service: TestService, source: string): Promise<string> {
  const entry = (await list(service)).data.find((e) => e.source === source);
  assert.ok(entry, `${source} is listed`);
  return entry.id;
}

Deno.test("an entry added after the newest was deleted gets a new id: the old id stays 404", async () => {
  await withService(async (service) => {
    await add(service, "Open", "Öffnen");
    await add(service, "Save", "Sichern");
    const saveId = await idOf(service, "Save");
    assert.equal(
      (await dataRequest(service, "DELETE", `/v1/memory/entries/${saveId}`)).status,
      204,
    );
    await add(service, "Close", "Schließen");
    assert.notEqual(await idOf(service, "Close"), saveId, "the deleted entry's id is not reused");
    await expectError(
      await dataRequest(service, "DELETE", `/v1/memory/entries/${saveId}`),
      404,
      "not_found",
      "id",
    );
    assert.deepEqual((await list(service)).data.map((e) => e.source), ["Close", "Open"]);
  });
});

Deno.test("DELETE /v1/memory/entries/{id} takes only the id as listed: 0-padded or signed is 404", async () => {
  await withService(async (service) => {
    await add(service, "Save", "Sichern");
    const id = await idOf(service, "Save");
    for (const alias of [`0${id}`, `+${id}`, `${id}.0`]) {
      await expectError(
        await dataRequest(service, "DELETE", `/v1/memory/entries/${encodeURIComponent(alias)}`),
        404,
        "not_found",
        "id",
      );
    }
    assert.deepEqual((await list(service)).data.map((e) => e.id), [id], "the entry is kept");
  });
});

Deno.test("a page cursor handed out before the newest entries were deleted never shows a newer entry", async () => {
  await withService(async (service) => {
    for (const word of ["One", "Two", "Three"]) await add(service, word, word.toUpperCase());
    const first = await list(service, "?limit=1");
    assert.deepEqual(first.data.map((e) => e.source), ["Three"]);
    assert.ok(first.next_cursor);
    for (const source of ["Three", "Two"]) {
      const id = await idOf(service, source);
      assert.equal((await dataRequest(service, "DELETE", `/v1/memory/entries/${id}`)).status, 204);
    }
    await add(service, "Four", "VIER");
    await add(service, "Five", "FÜNF");
    const next = await list(service, `?cursor=${first.next_cursor}`);
    assert.deepEqual(next.data.map((e) => e.source), ["One"], "only entries older than Three");
  });
});

Deno.test("migration 7 keeps every memory entry, its id and its fuzzy index, and then never reuses an id", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-memory-ids-" });
  try {
    const path = join(dataDir, DATABASE_FILE);
    const old = new DatabaseSync(path);
    for (const migration of MIGRATIONS.filter((step) => step.version <= 6)) old.exec(migration.sql);
    old.exec("pragma user_version = 6; pragma foreign_keys = on;");
    // MemoryStore.add writes the entries and their fuzzy grams as the schema-6 release did.
    const memory = new MemoryStore({
      path,
      db: old,
      statement: (sql) => old.prepare(sql),
      transaction: (work) => work(),
      read: (work) => work(),
      erased: () => {},
      checkpoint: () => {},
      close: () => old.close(),
    });
    memory.add([
      { sourceLang: "en", targetLang: "de", source: "Open the door.", target: "Tür öffnen." },
      { sourceLang: "en", targetLang: "de", source: "Deleted", target: "Gelöscht" },
      {
        sourceLang: "en",
        targetLang: "de",
        source: "The quick brown fox jumps over the lazy dog.",
        target: "Der schnelle braune Fuchs springt über den faulen Hund.",
      },
    ], "user");
    old.exec("delete from memory_entries where source = 'Deleted'");
    const before = old.prepare("select id, source from memory_entries order by id").all();
    const grams = old.prepare("select count(*) as n from memory_grams").get()?.n;
    assert.ok(Number(grams) > 0);
    old.close();

    await withStandInService({ dataDir }, async (service, runner) => {
      const rows = service.stores.database.db.prepare(
        "select id, source from memory_entries order by id",
      ).all();
      assert.deepEqual(rows, before, "every entry at its id");
      assert.equal(
        service.stores.database.db.prepare("select count(*) as n from memory_grams").get()?.n,
        grams,
        "every gram kept",
      );
      const body = await expectBody(
        await postTranslate(service, {
          source: "en",
          target: "de",
          texts: ["The quick brown fox jumped over the lazy dog."],
          options: { engine: "engine-one", memory: true },
        }),
        200,
        TranslateResponseSchema,
      );
      assert.equal(body.engine, "engine-one");
      const messages = runner.chats[0].messages as { role: string; content: string }[];
      const system = messages.find((m) => m.role === "system")!.content;
      assert.ok(
        system.includes("Der schnelle braune Fuchs springt über den faulen Hund."),
        "the migrated entry is a fuzzy hit",
      );
      const newest = (await list(service)).data[0];
      assert.equal(
        (await dataRequest(service, "DELETE", `/v1/memory/entries/${newest.id}`)).status,
        204,
      );
      assert.equal(
        service.stores.database.db.prepare(
          "select count(*) as n from memory_grams where entry_id not in (select id from memory_entries)",
        ).get()?.n,
        0,
        "a deleted entry's grams go with it (the grams still reference the entries)",
      );
      await add(service, "New", "Neu");
      const newId = await idOf(service, "New");
      assert.ok(Number(newId) > Number(newest.id), `id ${newId} was never handed out before`);
    });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
