import assert from "node:assert/strict";
import { join } from "node:path";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { openDataStores } from "../../../storage/data_stores.ts";
import { DATABASE_FILE } from "../../../storage/database.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { historyEntry } from "../../support/history_entries.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

function seed(service: TestService, count: number) {
  for (let i = 0; i < count; i++) {
    service.history.record({
      id: `tr_seed_${i}`,
      created: 1_800_000_000 + i,
      client: i % 2 ? "odd/1" : null,
      engine: "local-llm",
      model: "m",
      source: "fr",
      target: "en",
      mode: "paragraph",
      format: "text",
      texts: [`Bonjour numéro ${i}`],
      translations: [`Hello number ${i}`],
    });
  }
}

async function page(service: TestService, query: string) {
  return await expectBody(
    await dataRequest(service, "GET", `/v1/history${query}`),
    200,
    HistoryPageSchema,
  );
}

Deno.test("GET /v1/history lists a translation with its client, mode and format", async () => {
  await withService(async (service) => {
    const translated = await expectBody(
      await postTranslate(
        service,
        { source: "en", target: "en", texts: ["Keep me"], mode: "message", format: "text" },
        { "x-svc-client": "notes/2" },
      ),
      200,
      TranslateResponseSchema,
    );
    const body = await page(service, "");
    assert.equal(body.data.length, 1);
    assert.equal(body.next_cursor, null);
    assert.deepEqual(body.data[0], {
      id: translated.id,
      created: translated.created,
      client: "notes/2",
      engine: "passthrough",
      model: "passthrough",
      source: "en",
      target: "en",
      mode: "message",
      format: "text",
      texts: ["Keep me"],
      translations: ["Keep me"],
    });
  });
});

Deno.test("GET /v1/history pages newest first with a cursor until next_cursor is null", async () => {
  await withService(async (service) => {
    seed(service, 7);
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const body = await page(service, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      assert.ok(body.data.length <= 3);
      seen.push(...body.data.map((row) => row.id));
      cursor = body.next_cursor;
    }
    assert.deepEqual(seen, [6, 5, 4, 3, 2, 1, 0].map((i) => `tr_seed_${i}`));
  });
});

Deno.test("GET /v1/history defaults to 50 rows and searches texts, translations and client", async () => {
  await withService(async (service) => {
    seed(service, 60);
    assert.equal((await page(service, "")).data.length, 50);
    const byText = await page(service, `?q=${encodeURIComponent("numéro 42")}`);
    assert.deepEqual(byText.data.map((row) => row.id), ["tr_seed_42"]);
    const byTranslation = await page(service, "?q=NUMBER%2059");
    assert.deepEqual(byTranslation.data.map((row) => row.id), ["tr_seed_59"]);
    const byClient = await page(service, "?client=odd%2F1&limit=200");
    assert.equal(byClient.data.length, 30);
    const wildcard = await page(service, "?q=%25");
    assert.equal(wildcard.data.length, 0, "% is a literal, not a LIKE wildcard");
  });
});

Deno.test("GET /v1/history: a cursor taken before rows were deleted never pages onto rows recorded after", async () => {
  await withService(async (service) => {
    seed(service, 4);
    const first = await page(service, "?limit=2");
    assert.deepEqual(first.data.map((row) => row.id), ["tr_seed_3", "tr_seed_2"]);
    // The reader deletes what it saw and one more row, then a translation comes in.
    for (const id of ["tr_seed_3", "tr_seed_2", "tr_seed_1"]) {
      assert.equal((await dataRequest(service, "DELETE", `/v1/history/${id}`)).status, 204);
    }
    const newer = await expectBody(
      await postTranslate(service, { source: "en", target: "en", texts: ["Newer"] }),
      200,
      TranslateResponseSchema,
    );
    const rest = await page(service, `?limit=2&cursor=${first.next_cursor}`);
    assert.deepEqual(rest.data.map((row) => row.id), ["tr_seed_0"], "only rows older than page 1");
    const fresh = await page(service, "");
    assert.deepEqual(fresh.data.map((row) => row.id), [newer.id, "tr_seed_0"]);
    // After clearing everything, the old cursor has nothing older left to show.
    assert.equal((await dataRequest(service, "DELETE", "/v1/history")).status, 204);
    await postTranslate(service, { source: "en", target: "en", texts: ["After the clear"] });
    const afterClear = await page(service, `?cursor=${first.next_cursor}`);
    assert.deepEqual(afterClear, { data: [], next_cursor: null });
  });
});

/** Rows whose texts hold no search character but whose stored JSON spelling does. */
const JSON_SPELLING_ROWS = [
  { id: "tr_pair", texts: ["first", "second"] },
  { id: "tr_tab", texts: ["A\tB"] },
  { id: "tr_control", texts: ["Q\u0001R"] },
  { id: "tr_quote", texts: ['say "hi"'] },
  { id: "tr_bracket", texts: ["x[y]"] },
];

/** What each q finds among {@link JSON_SPELLING_ROWS}: only rows whose texts hold it. */
const LITERAL_SEARCHES = [
  { q: "[", ids: ["tr_bracket"] },
  { q: "]", ids: ["tr_bracket"] },
  { q: ",", ids: [] },
  { q: '","', ids: [] },
  { q: "t", ids: ["tr_pair"] },
  { q: "u00", ids: [] },
  { q: '"hi"', ids: ["tr_quote"] },
  { q: "\t", ids: ["tr_tab"] },
  { q: "A\tB", ids: ["tr_tab"] },
];

Deno.test("GET /v1/history?q= finds the text inside the items, never the JSON they are stored as", async () => {
  await withService(async (service) => {
    JSON_SPELLING_ROWS.forEach(({ id, texts }, i) =>
      service.history.record({
        id,
        created: 1_800_000_000 + i,
        client: null,
        engine: "local-llm",
        model: "m",
        source: "en",
        target: "de",
        mode: "paragraph",
        format: "text",
        texts,
        translations: texts.map(() => "ok"),
      })
    );
    for (const { q, ids } of LITERAL_SEARCHES) {
      const found = await page(service, `?q=${encodeURIComponent(q)}&limit=200`);
      assert.deepEqual(found.data.map((row) => row.id).sort(), [...ids].sort(), `q=${q}`);
    }
  });
});

const BAD_QUERIES = [
  { name: "limit 0", query: "?limit=0", param: "limit" },
  { name: "limit 201", query: "?limit=201", param: "limit" },
  { name: "limit not a number", query: "?limit=ten", param: "limit" },
  { name: "limit -1", query: "?limit=-1", param: "limit" },
  { name: "limit in hexadecimal (0x2)", query: "?limit=0x2", param: "limit" },
  { name: "limit in exponent notation (1e1)", query: "?limit=1e1", param: "limit" },
  { name: "limit with a fraction (2.5)", query: "?limit=2.5", param: "limit" },
  { name: "limit with spaces around it", query: "?limit=%202%20", param: "limit" },
  { name: "limit given twice", query: "?limit=1&limit=2", param: "limit" },
  { name: "limit past every integer", query: "?limit=99999999999999999999", param: "limit" },
  { name: "a cursor this service never made", query: "?cursor=bm9wZQ", param: "cursor" },
  { name: "an unknown parameter", query: "?sort=asc", param: "sort" },
];

for (const { name, query, param } of BAD_QUERIES) {
  Deno.test(`GET /v1/history refuses ${name} with 400 invalid_request naming ${param}`, async () => {
    await withService(async (service) => {
      await expectError(
        await dataRequest(service, "GET", `/v1/history${query}`),
        400,
        "invalid_request",
        param,
      );
    });
  });
}

Deno.test("GET /v1/history accepts limit 1 and 200 (the bounds)", async () => {
  await withService(async (service) => {
    seed(service, 2);
    assert.equal((await page(service, "?limit=1")).data.length, 1);
    assert.equal((await page(service, "?limit=200")).data.length, 2);
  });
});

Deno.test("DELETE /v1/history/{id} removes one row, then answers 404 not_found", async () => {
  await withService(async (service) => {
    seed(service, 3);
    const deleted = await dataRequest(service, "DELETE", "/v1/history/tr_seed_1");
    assert.equal(deleted.status, 204);
    assert.equal(await deleted.text(), "");
    assert.deepEqual((await page(service, "")).data.map((row) => row.id), [
      "tr_seed_2",
      "tr_seed_0",
    ]);
    await expectError(
      await dataRequest(service, "DELETE", "/v1/history/tr_seed_1"),
      404,
      "not_found",
      "id",
    );
  });
});

Deno.test("DELETE /v1/history removes every row", async () => {
  await withService(async (service) => {
    seed(service, 5);
    assert.equal((await dataRequest(service, "DELETE", "/v1/history")).status, 204);
    assert.deepEqual((await page(service, "")).data, []);
  });
});

Deno.test("DELETE /v1/history refuses a query (q, client, …) with 400 and keeps every row", async () => {
  await withService(async (service) => {
    seed(service, 4);
    // `?client=odd/1` reads as "forget that client's rows": taken silently, it would forget all.
    for (const [param, value] of [["q", "numéro 1"], ["client", "odd/1"], ["cursor", "x"]]) {
      await expectError(
        await dataRequest(service, "DELETE", `/v1/history?${param}=${encodeURIComponent(value)}`),
        400,
        "invalid_request",
        param,
      );
    }
    assert.equal((await page(service, "")).data.length, 4, "every row is kept");
  });
});

Deno.test("GET /v1/history on a database damaged past its first page is 503 storage_unavailable", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-history-damaged-" });
  try {
    const stores = openDataStores(dataDir);
    for (let i = 0; i < 300; i++) stores.history.record(historyEntry(i));
    stores.close();
    // Page 1 (header and schema) stays readable: the service starts, and the rows cannot be read.
    const path = join(dataDir, DATABASE_FILE);
    Deno.writeFileSync(path, Deno.readFileSync(path).fill(0xff, 4096));
    await withService(async (service) => {
      await expectError(
        await dataRequest(service, "GET", "/v1/history"),
        503,
        "storage_unavailable",
      );
    }, { dataDir });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("the history routes need the token", async () => {
  await withService(async (service) => {
    for (
      const [method, path] of [["GET", "/v1/history"], ["DELETE", "/v1/history"], [
        "DELETE",
        "/v1/history/x",
      ]]
    ) {
      const response = await fetch(`${service.url}${path}`, { method });
      await expectError(response, 401, "unauthorized");
    }
  });
});
