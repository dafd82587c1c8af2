/**
 * One text whose answer the server says does not fit its context is asked again with the room
 * its refusal names, in the words the servers use now: vLLM's since its V1 engine ("'max_tokens'
 * or 'max_completion_tokens' is too large: 1943. This model's maximum context length is 2048
 * tokens and your request has 1294 input tokens (1943 > 2048 - 1294)"), through POST
 * /v1/translate.
 */
import assert from "node:assert/strict";
import { COMPATIBLE, translateOk } from "../../support/chat_engine_checks.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";

const PARAGRAPH = "Il fait beau aujourd'hui et nous allons à la plage. ".repeat(10).trim();

/** vLLM's 400 for a max_tokens that does not fit after the prompt, as it words it now. */
const VLLM_MAX_TOKENS_TOO_LARGE = {
  status: 400,
  body: {
    error: {
      message: "'max_tokens' or 'max_completion_tokens' is too large: 1943. This model's " +
        "maximum context length is 2048 tokens and your request has 1294 input tokens " +
        "(1943 > 2048 - 1294). None",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
  },
};

Deno.test("POST /v1/translate asks again for one text with the room vLLM's 'your request has N input tokens' names", async () => {
  const completions = [VLLM_MAX_TOKENS_TOO_LARGE, '{"1": "The weather is lovely today."}'];
  await withChatCompletionsService({ completions }, async (service, backend) => {
    const body = await translateOk(service, { ...COMPATIBLE, texts: [PARAGRAPH] });
    assert.equal(body.results[0].text, "The weather is lovely today.");
    assert.equal(backend.chats.length, 2);
    const [first, second] = backend.chats as { max_tokens: number }[];
    // 2048 − 1294, less the margin: what the server says fits.
    assert.ok(second.max_tokens <= 2048 - 1294 && second.max_tokens < first.max_tokens);
  });
});
