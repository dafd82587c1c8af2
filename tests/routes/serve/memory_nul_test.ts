/**
 * U+0000 in memory texts: SQLite stores it, but node:sqlite reads a text only up to its first
 * NUL, so such an entry came back as other text ("Hello" for "Hello\0world") — a wrong exact
 * hit, a wrong listed and exported entry. The memory neither takes nor keeps one.
 */
import assert from "node:assert/strict";
import { MemoryPageSchema } from "../../../schemas/memory.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate, type TestService } from "../../support/translation_service.ts";

async function stored(service: TestService) {
  return (await expectBody(
    await dataRequest(service, "GET", "/v1/memory/entries"),
    200,
    MemoryPageSchema,
  )).data;
}

Deno.test("a translation of a text holding U+0000 is not remembered, so the next one is the engine's whole answer", async () => {
  await withStandInService({}, async (service, runner) => {
    const text = "Hello\u0000world";
    for (let round = 1; round <= 2; round++) {
      const body = await expectBody(
        await postTranslate(service, {
          source: "en",
          target: "de",
          texts: [text],
          options: { engine: "engine-one", memory: true },
        }),
        200,
        TranslateResponseSchema,
      );
      assert.equal(body.results[0].text, standInTranslation(text), `round ${round}`);
      assert.equal(runner.chats.length, round, "the engine translated it");
    }
    assert.deepEqual(await stored(service), [], "no entry that reads back as other text");
  });
});

Deno.test("POST /v1/memory/entries refuses a source or target holding U+0000 with 400 and writes nothing", async () => {
  await withStandInService({}, async (service) => {
    for (
      const [entry, param] of [
        [{ source: "Hello\u0000world", target: "Hallo" }, "entries[0].source"],
        [{ source: "Hello", target: "Hallo\u0000Welt" }, "entries[0].target"],
      ] as const
    ) {
      await expectError(
        await dataRequest(service, "POST", "/v1/memory/entries", {
          source_lang: "en",
          target_lang: "de",
          entries: [entry],
        }),
        400,
        "invalid_request",
        param,
      );
    }
    assert.deepEqual(await stored(service), []);
  });
});
