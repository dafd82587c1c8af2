/**
 * POST /v1/memory/import with TMX as other tools write it (OmegaT, Trados, memoQ, Wordfast,
 * Smartcat): the source variant found whatever its region tag, the byte encodings a file arrives
 * in, a file cut short, and DTDs that must not be fetched or expanded.
 */
import assert from "node:assert/strict";
import { MemoryImportResponseSchema, MemoryPageSchema } from "../../../schemas/memory.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

const TMX = { "content-type": "application/x-tmx+xml" };

/** A TMX document: `prolog` before the root, the header's `srclang`, and the units' XML. */
function tmx(units: string, srclang = "en", prolog = '<?xml version="1.0" encoding="UTF-8"?>') {
  return `${prolog}\n<tmx version="1.4"><header creationtool="t" creationtoolversion="1" ` +
    `segtype="sentence" o-tmf="t" adminlang="en" srclang="${srclang}" datatype="plaintext"/>` +
    `<body>\n${units}\n</body></tmx>\n`;
}

/** A unit of `[language tag, seg content]` variants, in this order. */
function tu(...variants: [string, string][]): string {
  const tuvs = variants.map(([lang, seg]) => `<tuv xml:lang="${lang}"><seg>${seg}</seg></tuv>`);
  return `<tu>${tuvs.join("")}</tu>`;
}

function post(service: TestService, body: BodyInit): Promise<Response> {
  return fetch(`${service.url}/v1/memory/import`, {
    method: "POST",
    headers: { "x-svc-token": service.token, ...TMX },
    body,
  });
}

async function imported(service: TestService, body: BodyInit) {
  return await expectBody(await post(service, body), 200, MemoryImportResponseSchema);
}

async function entries(service: TestService): Promise<string[][]> {
  const page = await expectBody(
    await dataRequest(service, "GET", "/v1/memory/entries?limit=200"),
    200,
    MemoryPageSchema,
  );
  return page.data.map((e) => [e.source_lang, e.target_lang, e.source, e.target]).reverse();
}

function utf16(text: string, byteOrder: "le" | "be"): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set(byteOrder === "le" ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const [high, low] = [text.charCodeAt(i) >> 8, text.charCodeAt(i) & 0xff];
    bytes.set(byteOrder === "le" ? [low, high] : [high, low], 2 + 2 * i);
  }
  return bytes;
}

Deno.test("POST /v1/memory/import finds the header's srclang `en` in a unit's `en-US` variant wherever it stands", async () => {
  await withService(async (service) => {
    const units = tu(["de-DE", "Speichern"], ["en-US", "Save"]) + "\n" +
      tu(["EN-GB", "Colour"], ["fr-FR", "Couleur"]);
    assert.deepEqual(await imported(service, tmx(units, "en")), { imported: 2, skipped: 0 });
    assert.deepEqual(await entries(service), [
      ["en", "de", "Save", "Speichern"],
      ["en", "fr", "Colour", "Couleur"],
    ]);
  });
});

Deno.test("POST /v1/memory/import maps the language tags CAT tools write onto the 16 (zh-CHS and zh-CHT of older Windows tools too)", async () => {
  await withService(async (service) => {
    const unit = tu(
      ["EN-US", "Save"],
      ["zh-CHS", "保存"],
      ["zh-CHT", "儲存"],
      ["tl_PH", "I-save"],
      ["pt-BR", "Salvar"],
    );
    assert.deepEqual(await imported(service, tmx(unit, "EN-US")), { imported: 3, skipped: 1 });
    assert.deepEqual(await entries(service), [
      ["en", "zh-Hans", "Save", "保存"],
      ["en", "zh-Hant", "Save", "儲存"],
      ["en", "fil", "Save", "I-save"],
    ]);
  });
});

Deno.test("POST /v1/memory/import takes a unit's creationdate, and one before 1970 (.NET's 00010101T000000Z for none) as unknown", async () => {
  await withService(async (service) => {
    const dated = (date: string, text: string) =>
      `<tu creationdate="${date}"><tuv xml:lang="en"><seg>${text}</seg></tuv>` +
      `<tuv xml:lang="de"><seg>${text}!</seg></tuv></tu>`;
    const units = [
      dated("20240229T120000Z", "Leap"),
      dated("00010101T000000Z", "None"),
      dated("19650101T000000Z", "Old"),
    ];
    const started = Math.floor(Date.now() / 1000);
    assert.deepEqual(await imported(service, tmx(units.join("\n"))), { imported: 3, skipped: 0 });
    const page = await expectBody(
      await dataRequest(service, "GET", "/v1/memory/entries"),
      200,
      MemoryPageSchema,
    );
    const created = new Map(page.data.map((entry) => [entry.source, entry.created]));
    assert.equal(created.get("Leap"), Date.UTC(2024, 1, 29, 12) / 1000);
    for (const source of ["None", "Old"]) assert.ok(created.get(source)! >= started, source);
  });
});

const ENCODED = [
  { name: "UTF-16 LE with its byte-order mark", bytes: (doc: string) => utf16(doc, "le") },
  { name: "UTF-16 BE with its byte-order mark", bytes: (doc: string) => utf16(doc, "be") },
  {
    name: "UTF-8 with a byte-order mark",
    bytes: (doc: string) => new TextEncoder().encode(`\ufeff${doc}`),
  },
];

for (const { name, bytes } of ENCODED) {
  Deno.test(`POST /v1/memory/import reads a TMX in ${name}`, async () => {
    await withService(async (service) => {
      const doc = tmx(
        tu(["en-US", "Café 😀"], ["zh-TW", "咖啡館 😀"]),
        "en-US",
        '<?xml version="1.0" encoding="UTF-16"?>',
      );
      assert.deepEqual(await imported(service, bytes(doc)), { imported: 1, skipped: 0 });
      assert.deepEqual(await entries(service), [["en", "zh-Hant", "Café 😀", "咖啡館 😀"]]);
    });
  });
}

Deno.test("POST /v1/memory/import reads UTF-16 without a byte-order mark by its `<?xml` (XML 1.0, appendix F)", async () => {
  await withService(async (service) => {
    const doc = tmx(
      tu(["en", "Café"], ["de", "Kaffeehaus"]),
      "en",
      '<?xml version="1.0" encoding="UTF-16"?>',
    );
    for (const byteOrder of ["le", "be"] as const) {
      const bytes = utf16(doc, byteOrder).slice(2);
      assert.deepEqual(await imported(service, bytes), { imported: 1, skipped: 0 }, byteOrder);
    }
    assert.deepEqual(await entries(service), [["en", "de", "Café", "Kaffeehaus"]]);
  });
});

Deno.test("POST /v1/memory/import of a TMX in another encoding than its bytes are says which one its declaration names", async () => {
  await withService(async (service) => {
    const doc = tmx(
      tu(["en", "Caf\xe9"], ["de", "K\xe4se"]),
      "en",
      '<?xml version="1.0" encoding="ISO-8859-1"?>',
    );
    const said = await expectError(
      await post(service, Uint8Array.from(doc, (char) => char.charCodeAt(0))),
      400,
      "invalid_request",
    );
    assert.match(
      said.error.message,
      /^the body is not TMX: the body is not UTF-8 text: its XML declaration names ISO-8859-1, and TMX is UTF-8 or UTF-16/,
    );
    assert.deepEqual(await entries(service), []);
  });
});

Deno.test("POST /v1/memory/import of a TMX cut short says so and leaves the memory as it was", async () => {
  await withService(async (service) => {
    await imported(service, tmx(tu(["en", "Keep"], ["de", "Behalten"])));
    const whole = tmx(
      Array.from({ length: 40 }, (_, i) => tu(["en", `Unit ${i}`], ["de", `E ${i}`])).join("\n"),
    );
    for (
      const cut of [whole.indexOf("xml:lang", 2000) + 6, whole.length - 12, whole.length - 4000]
    ) {
      const said = await expectError(
        await post(service, whole.slice(0, cut)),
        400,
        "invalid_request",
      );
      assert.match(said.error.message, /cut short/, `cut at ${cut}: ${said.error.message}`);
    }
    const trailed = await expectError(
      await post(service, `${whole}<tu>`),
      400,
      "invalid_request",
    );
    assert.doesNotMatch(trailed.error.message, /cut short/, "a whole file with more after it");
    assert.deepEqual(await entries(service), [["en", "de", "Keep", "Behalten"]]);
  });
});

Deno.test("POST /v1/memory/import skips a variant whose character reference names no character (U+0000, a surrogate) rather than store U+FFFD", async () => {
  await withService(async (service) => {
    const units = [
      tu(["en", "Tab&#0;stop"], ["de", "Tabstopp"]),
      tu(["en", "Half &#xD83D; a face"], ["de", "Ein halbes Gesicht"]),
      tu(["en", "Far &#x110000; out"], ["de", "Weit draußen"]),
      tu(["en", "Face &#x1F600;&#9;&#38;"], ["de", "Gesicht"]),
    ];
    assert.deepEqual(await imported(service, tmx(units.join("\n"))), { imported: 1, skipped: 3 });
    assert.deepEqual(await entries(service), [["en", "de", "Face 😀\t&", "Gesicht"]]);
  });
});

Deno.test("POST /v1/memory/import neither expands an entity bomb nor fetches an external entity", async () => {
  await withService(async (service) => {
    const levels = Array.from(
      { length: 10 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    );
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE tmx [\n<!ENTITY lol0 "lol">\n${
      levels.join("\n")
    }\n]>`;
    const units = tu(["en", "Boom &lol10;"], ["de", "Bumm"]) + tu(["en", "Fine"], ["de", "Gut"]);
    // No clock: expanding 10^10 entities (30 GB) could not end in an answer at all, and the
    // bomb's unit is the one skipped.
    assert.deepEqual(await imported(service, tmx(units, "en", bomb)), { imported: 1, skipped: 1 });

    let fetched = 0;
    const listener = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
      fetched++;
      return new Response("Leaked");
    });
    try {
      const { port } = listener.addr as Deno.NetAddr;
      const external = `<?xml version="1.0"?>\n<!DOCTYPE tmx [<!ENTITY leak SYSTEM ` +
        `"http://127.0.0.1:${port}/x">]>`;
      await expectError(
        await post(service, tmx(tu(["en", "A &leak;"], ["de", "B"]), "en", external)),
        400,
        "invalid_request",
      );
      assert.equal(fetched, 0);
    } finally {
      await listener.shutdown();
    }
    assert.deepEqual(await entries(service), [["en", "de", "Fine", "Gut"]]);
  });
});
