/** Requests the translation-memory tests make: an en → de translation with memory, a user entry. */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../schemas/translation.ts";
import { dataRequest } from "./data_requests.ts";
import { expectBody } from "./http_assertions.ts";
import { postTranslate, type TestService } from "./translation_service.ts";

/** POST /v1/translate en → de on engine-one with memory on (and `options`); must succeed. */
export async function translateWithMemory(
  service: TestService,
  texts: string[],
  options: Record<string, unknown> = {},
) {
  return await expectBody(
    await postTranslate(service, {
      source: "en",
      target: "de",
      texts,
      options: { engine: "engine-one", memory: true, ...options },
    }),
    200,
    TranslateResponseSchema,
  );
}

/** Adds one en → de user entry to the memory. */
export async function addUserEntry(service: TestService, source: string, target: string) {
  const response = await dataRequest(service, "POST", "/v1/memory/entries", {
    source_lang: "en",
    target_lang: "de",
    entries: [{ source, target }],
  });
  assert.equal(response.status, 201, await response.text());
}
