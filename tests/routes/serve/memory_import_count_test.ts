/**
 * `imported` (POST /v1/memory/import) and `added` (POST /v1/memory/entries) count the entries
 * left in the memory: units with the same source text (normalised) and language pair are one
 * entry, the later one kept, wherever they fall in the import's batches. An earlier unit whose
 * translation the later one replaced with another is counted in `skipped` (the file contradicts
 * itself: the client learns that a translation of it was not kept); a repeat of the same
 * translation loses nothing and is not.
 */
import assert from "node:assert/strict";
import {
  AddMemoryResponseSchema,
  MemoryImportResponseSchema,
  MemoryPageSchema,
} from "../../../schemas/memory.ts";
import { IMPORT_BATCH } from "../../../storage/memory_store.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

const TMX = { "content-type": "application/x-tmx+xml" };

interface Unit {
  source: string;
  target: string;
  origin?: "user" | "engine";
  pair?: [string, string];
}

function tmx(units: readonly Unit[]): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const body = units.map(({ source, target, origin, pair = ["en", "de"] }) =>
    `<tu srclang="${pair[0]}">` +
    (origin ? `<prop type="x-tolk-origin">${origin}</prop>` : "") +
    `<tuv xml:lang="${pair[0]}"><seg>${escape(source)}</seg></tuv>` +
    `<tuv xml:lang="${pair[1]}"><seg>${escape(target)}</seg></tuv></tu>`
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="t" ` +
    `creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" srclang="en" ` +
    `datatype="plaintext"/><body>\n${body}\n</body></tmx>`;
}

async function importTmx(service: TestService, units: readonly Unit[]) {
  return await expectBody(
    await dataRequest(service, "POST", "/v1/memory/import", tmx(units), TMX),
    200,
    MemoryImportResponseSchema,
  );
}

async function stored(service: TestService) {
  const entries = [];
  let cursor = "";
  do {
    const page = await expectBody(
      await dataRequest(service, "GET", `/v1/memory/entries?limit=200${cursor}`),
      200,
      MemoryPageSchema,
    );
    entries.push(...page.data);
    cursor = page.next_cursor ? `&cursor=${page.next_cursor}` : "";
  } while (cursor);
  return entries;
}

const CASES: {
  name: string;
  units: Unit[];
  imported: number;
  skipped?: number;
  kept: string[];
}[] = [
  {
    name: "the same source twice with different targets: one entry, the later target, one skipped",
    units: [{ source: "Save", target: "Sichern" }, { source: "Save", target: "Speichern" }],
    imported: 1,
    skipped: 1,
    kept: ["Save → Speichern"],
  },
  {
    name: "the same unit twice: one entry, nothing skipped",
    units: [{ source: "Save", target: "Speichern" }, { source: "Save", target: "Speichern" }],
    imported: 1,
    kept: ["Save → Speichern"],
  },
  {
    name:
      "the same translation written with other white space (a pretty-printed <seg>): nothing skipped",
    units: [{ source: "Save", target: "Speichern" }, { source: "Save", target: " Speichern\n " }],
    imported: 1,
    kept: ["Save →  Speichern\n "],
  },
  {
    name: "three variants of one source: the last kept, the two before it skipped",
    units: [
      { source: "Save", target: "Sichern" },
      { source: "Save", target: "Speichern" },
      { source: "Save", target: "Ablegen" },
    ],
    imported: 1,
    skipped: 2,
    kept: ["Save → Ablegen"],
  },
  {
    name: "sources equal once normalised (white space, NFC): one entry",
    units: [
      { source: "Caf\u0065\u0301  latte", target: "Milchkaffee" },
      { source: "Caf\u00e9 latte ", target: "Latte" },
    ],
    imported: 1,
    skipped: 1,
    kept: ["Caf\u00e9 latte  → Latte"],
  },
  {
    name: "the same source in two language pairs: two entries",
    units: [{ source: "Save", target: "Sichern" }, {
      source: "Save",
      target: "Enregistrer",
      pair: ["en", "fr"],
    }],
    imported: 2,
    kept: ["Save → Enregistrer", "Save → Sichern"],
  },
  {
    name: "the same source from the user and from an engine: two entries (the user's wins)",
    units: [{ source: "Save", target: "Sichern", origin: "user" }, {
      source: "Save",
      target: "Speichern",
      origin: "engine",
    }],
    imported: 2,
    kept: ["Save → Speichern", "Save → Sichern"],
  },
];

for (const { name, units, imported, skipped = 0, kept } of CASES) {
  Deno.test(`POST /v1/memory/import counts what it left: ${name}`, async () => {
    await withService(async (service) => {
      assert.deepEqual(await importTmx(service, units), { imported, skipped });
      const entries = await stored(service);
      assert.deepEqual(entries.map((e) => `${e.source} → ${e.target}`), kept);
    });
  });
}

Deno.test("POST /v1/memory/import counts a unit repeated in a later batch once, the one it replaced in skipped", async () => {
  await withService(async (service) => {
    const units = Array.from({ length: IMPORT_BATCH + 1 }, (_, i) => ({
      source: `Sentence ${i % IMPORT_BATCH}`,
      target: `Satz ${i}`,
    }));
    assert.deepEqual(await importTmx(service, units), { imported: IMPORT_BATCH, skipped: 1 });
    const entries = await stored(service);
    assert.equal(entries.length, IMPORT_BATCH);
    assert.equal(entries.find((e) => e.source === "Sentence 0")?.target, `Satz ${IMPORT_BATCH}`);
  });
});

Deno.test("POST /v1/memory/entries counts a source sent twice once in `added`", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await dataRequest(service, "POST", "/v1/memory/entries", {
        source_lang: "en",
        target_lang: "de",
        entries: [{ source: "Save", target: "Sichern" }, { source: "Save ", target: "Speichern" }],
      }),
      201,
      AddMemoryResponseSchema,
    );
    assert.deepEqual(body, { added: 1 });
    assert.deepEqual((await stored(service)).map((e) => e.target), ["Speichern"]);
  });
});

Deno.test("POST /v1/memory/import skips and counts a variant over 8000 characters, which no request could look up", async () => {
  await withService(async (service) => {
    const longest = "😀".repeat(8000); // 8000 code points, 16000 UTF-16 units: within the limit
    const body = await importTmx(service, [
      { source: "a".repeat(8001), target: "kurz" },
      { source: "short", target: "b".repeat(8001) },
      { source: longest, target: "Emojis" },
      { source: "Save", target: longest },
    ]);
    assert.deepEqual(body, { imported: 2, skipped: 2 });
    assert.deepEqual(
      (await stored(service)).map((e) => e.source.length).sort((a, b) => a - b),
      [4, 16000],
    );
  });
});
