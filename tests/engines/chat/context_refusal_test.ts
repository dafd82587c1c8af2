import assert from "node:assert/strict";
import { answerRoom } from "../../../engines/chat/context_refusal.ts";

Deno.test("answerRoom reads the context and the prompt's tokens as tolk infer, vLLM/OpenAI (and vLLM's V1 engine) and llama.cpp word them", () => {
  const cases: [string, number | undefined][] = [
    [
      "this model's context is 2048 tokens; the request needs 1294 prompt tokens + 1943 max_tokens",
      754,
    ],
    [
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens " +
      "(1000 in the messages, 4000 in the completion).",
      3096,
    ],
    [
      "'max_tokens' or 'max_completion_tokens' is too large: 1943. This model's maximum context " +
      "length is 2048 tokens and your request has 1294 input tokens (1943 > 2048 - 1294). None",
      754,
    ],
    ['{"code":400,"type":"exceed_context_size_error","n_prompt_tokens":1500,"n_ctx":2048}', 548],
    // No figures, or no room left: nothing to go on.
    ["the request exceeds the available context size", undefined],
    ["this model's context is 2048 tokens; the request needs 2100 prompt tokens", undefined],
  ];
  for (const [refusal, room] of cases) assert.equal(answerRoom(refusal), room, refusal);
});
