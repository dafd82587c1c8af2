/**
 * engine-one and thinking models: Ollama turns thinking on by default for a model that can
 * (qwen3, deepseek-r1, …), which spends the answer's token cap on reasoning before the
 * translation; `think: false` turns it off. Ollama refuses only `think: true` for a model
 * that cannot think, and releases before `think` ignore the field.
 */
import assert from "node:assert/strict";
import { ENGINE_ONE, translateOk } from "../../support/chat_engine_checks.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

Deno.test("POST /v1/translate through engine-one sends /api/chat with think: false", async () => {
  await withStandInService({}, async (service, runner) => {
    const result = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
    assert.equal(result.results[0].text, standInTranslation("Guten Tag"));
    assert.equal(runner.chats.length, 1);
    assert.equal(runner.chats[0].think, false);
  });
});
