/**
 * Paging the history while translations are being recorded: a client walking the pages gets each
 * row that was there when it started exactly once, in order, whatever is written between pages.
 */
import assert from "node:assert/strict";
import { HistoryPageSchema } from "../../../schemas/history.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

/** Translates `text` en → en (no engine call): one history row. */
async function record(service: TestService, text: string): Promise<void> {
  const response = await postTranslate(service, { source: "en", target: "en", texts: [text] });
  assert.equal(response.status, 200, await response.text());
}

/** One page of four rows after `cursor` ("" for the first). */
async function historyPage(service: TestService, cursor: string) {
  const query = cursor ? `&cursor=${cursor}` : "";
  return await expectBody(
    await dataRequest(service, "GET", `/v1/history?limit=4${query}`),
    200,
    HistoryPageSchema,
  );
}

Deno.test("GET /v1/history pages every row once, newest first, while 10 translations are recorded between each two pages", async () => {
  await withService(async (service) => {
    for (let i = 0; i < 25; i++) await record(service, `before ${i}`);
    const seen: string[] = [];
    let cursor: string | null = "";
    let round = 0;
    while (cursor !== null) {
      // The writes and the page request race: both are in flight at once.
      const writes = Array.from({ length: 10 }, (_, i) => record(service, `during ${round}.${i}`));
      const page = historyPage(service, cursor);
      const [body] = await Promise.all([page, ...writes]);
      seen.push(...body.data.flatMap((row) => row.texts));
      cursor = body.next_cursor;
      round++;
    }
    const before = seen.filter((text) => text.startsWith("before"));
    assert.deepEqual(before, Array.from({ length: 25 }, (_, i) => `before ${24 - i}`));
    assert.equal(new Set(seen).size, seen.length, "no row twice");
    assert.ok(
      seen.slice(seen.indexOf("before 24")).every((text) => text.startsWith("before")),
      "after the first page's rows, none recorded later",
    );
  });
});
