import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DATABASE_FILE, openDatabase } from "../../storage/database.ts";
import { MIGRATIONS } from "../../storage/migrations/migrations.ts";
import { MemoryStore } from "../../storage/memory_store.ts";
import { bigrams, dice, memoryKey } from "../../storage/memory_sketch.ts";

function withMemory(fn: (memory: MemoryStore) => void) {
  const database = openDatabase(":memory:");
  try {
    fn(new MemoryStore(database));
  } finally {
    database.close();
  }
}

const pair = (source: string, target: string) => ({
  sourceLang: "en",
  targetLang: "de",
  source,
  target,
});

Deno.test("memoryKey normalises NFC and runs of white space", () => {
  assert.equal(memoryKey("  Caf\u0065\u0301\t\n latte  "), "Caf\u00e9 latte");
});

Deno.test("MemoryStore.exact finds a text by its normalised key", () => {
  withMemory((memory) => {
    memory.add([pair("Good  morning,\t friend.", "Guten Morgen, Freund.")], "engine");
    assert.equal(memory.exact("en", "de", " Good morning, friend. "), "Guten Morgen, Freund.");
    assert.equal(memory.exact("en", "de", "Good morning,\nfriend."), null, "other lines");
    assert.equal(memory.exact("en", "fr", "Good morning, friend."), null, "other pair");
    assert.equal(memory.exact("en", "de", "good morning, friend."), null, "case matters for exact");
  });
});

Deno.test("an engine entry is an exact hit only under its own steering; a user entry under any", () => {
  withMemory((memory) => {
    memory.add([{ ...pair("Bank", "Ufer"), steering: "river" }], "engine");
    assert.equal(memory.exact("en", "de", "Bank", "river"), "Ufer");
    assert.equal(memory.exact("en", "de", "Bank", "money"), null);
    assert.equal(memory.exact("en", "de", "Bank"), null, "no steering is a steering too");
    assert.deepEqual(memory.fuzzy("en", "de", "Bank").map((hit) => hit.target), ["Ufer"]);
    memory.add([{ ...pair("Bank", "Geldinstitut"), steering: "money" }], "engine");
    assert.equal(memory.exact("en", "de", "Bank", "money"), "Geldinstitut", "the latest kept");
    assert.equal(memory.exact("en", "de", "Bank", "river"), null);
    memory.add([pair("Bank", "Bank (user)")], "user");
    assert.equal(memory.exact("en", "de", "Bank", "river"), "Bank (user)");
  });
});

Deno.test("engine entries written before migration 5 are hits for requests with no steering", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-memory-test-" });
  try {
    const path = join(dir, DATABASE_FILE);
    const old = new DatabaseSync(path);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 4)) old.exec(migration.sql);
    old.exec("pragma user_version = 4;");
    old.prepare(
      `insert into memory_entries (source_lang, target_lang, key, source, target, origin, length, created)
       values ('en', 'de', 'Save', 'Save', 'Sichern', 'engine', 1, 0)`,
    ).run();
    old.close();
    const database = openDatabase(path);
    try {
      const memory = new MemoryStore(database);
      assert.equal(memory.exact("en", "de", "Save"), "Sichern");
      assert.equal(memory.exact("en", "de", "Save", "steered"), null);
    } finally {
      database.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a user entry wins over an engine entry for the same text, in either order", () => {
  withMemory((memory) => {
    memory.add([pair("Save", "Sichern")], "user");
    memory.add([pair("Save", "Speichern (engine)")], "engine");
    assert.equal(memory.exact("en", "de", "Save"), "Sichern");
    memory.add([pair("Open", "Öffnen (engine)")], "engine");
    memory.add([pair("Open", "Aufmachen")], "user");
    assert.equal(memory.exact("en", "de", "Open"), "Aufmachen");
  });
});

const FUZZY = [
  {
    name: "a changed word in English",
    stored: "The quick brown fox jumps over the lazy dog.",
    query: "The quick brown fox jumped over the lazy dog.",
    hit: true,
  },
  {
    name: "Thai without spaces",
    stored: "ฉันชอบกินข้าวผัดกับไข่ดาวทุกวัน",
    query: "ฉันชอบกินข้าวผัดกับไข่เจียวทุกวัน",
    hit: true,
  },
  {
    name: "Chinese with one character changed",
    stored: "我们明天早上九点在公司门口见面。",
    query: "我们明天早上十点在公司门口见面。",
    hit: true,
  },
  {
    name: "an unrelated sentence",
    stored: "The quick brown fox jumps over the lazy dog.",
    query: "Please restart the server before noon.",
    hit: false,
  },
] as const;

for (const { name, stored, query, hit } of FUZZY) {
  Deno.test(`MemoryStore.fuzzy: ${name} → ${hit ? "hit" : "none"}`, () => {
    withMemory((memory) => {
      const lang = /\p{Script=Thai}/u.test(stored)
        ? "th"
        : /\p{Script=Han}/u.test(stored)
        ? "zh-Hans"
        : "en";
      memory.add([{ sourceLang: lang, targetLang: "de", source: stored, target: "T" }], "engine");
      const hits = memory.fuzzy(lang, "de", query);
      const similarity = dice(bigrams(memoryKey(stored)), bigrams(memoryKey(query)));
      assert.equal(hits.length > 0, hit, `similarity ${similarity}`);
      if (hit) assert.ok(hits[0].similarity >= 0.75 && hits[0].similarity < 1);
    });
  });
}

Deno.test("MemoryStore.list pages newest first and filters; delete removes one entry", () => {
  withMemory((memory) => {
    memory.add(Array.from({ length: 5 }, (_, i) => pair(`text ${i}`, `Text ${i}`)), "user");
    const first = memory.list({ limit: 2 });
    assert.deepEqual(first.entries.map((e) => e.source), ["text 4", "text 3"]);
    const second = memory.list({ limit: 2, cursor: first.nextCursor! });
    assert.deepEqual(second.entries.map((e) => e.source), ["text 2", "text 1"]);
    assert.equal(memory.list({ limit: 10, q: "Text 3" }).entries.length, 1);
    assert.equal(memory.list({ limit: 10, targetLang: "fr" }).entries.length, 0);
    assert.ok(memory.delete(first.entries[0].id));
    assert.ok(!memory.delete(first.entries[0].id));
    assert.equal(memory.exact("en", "de", "text 4"), null);
    assert.equal(memory.fuzzy("en", "de", "text 4").some((hit) => hit.source === "text 4"), false);
  });
});
