import assert from "node:assert/strict";
import { openDatabase } from "../../storage/database.ts";
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
    memory.add([pair("Good  morning,\nfriend.", "Guten Morgen, Freund.")], "engine");
    assert.equal(memory.exact("en", "de", " Good morning, friend. "), "Guten Morgen, Freund.");
    assert.equal(memory.exact("en", "fr", "Good morning, friend."), null, "other pair");
    assert.equal(memory.exact("en", "de", "good morning, friend."), null, "case matters for exact");
  });
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
