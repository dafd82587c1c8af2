/**
 * POST /v1/chat/completions — one chat generation, as a JSON body or as server-sent events.
 *
 * Every check that can fail (model ready, context length, grammar) runs before the stream
 * starts, so those failures are ordinary HTTP errors. A client that goes away aborts the
 * generation at once, which frees its slot.
 */
import { Hono } from "hono";
import { INFERENCE_JSON_BODY_ERRORS } from "../../errors/inference_errors.ts";
import type { GenerationResult, InferenceRuntime } from "../../inference/generation.ts";
import {
  completionBody,
  newCompletionMeta,
  toGenerationParams,
  wantsStream,
  wantsStreamUsage,
} from "../../inference/openai_adapter.ts";
import { chatCompletionStream, SSE_HEADERS } from "../../inference/openai_stream.ts";
import { jsonBody } from "../../middleware/json_body.ts";
import type { RequestIdVariables } from "../../middleware/request_id.ts";
import { ChatCompletionRequestSchema } from "../../schemas/openai.ts";

/** What the chat completions route uses. */
export interface ChatCompletionsRouteDeps {
  runtime: InferenceRuntime;
  /** Where a failure in the middle of a stream is logged (stderr by default). */
  log?: (line: string) => void;
}

/** The chat completions sub-app. */
export function chatCompletionsRoute(deps: ChatCompletionsRouteDeps) {
  const log = deps.log ?? ((line: string) => console.error(line));
  return new Hono<{ Variables: RequestIdVariables }>().post(
    "/",
    jsonBody(ChatCompletionRequestSchema, INFERENCE_JSON_BODY_ERRORS),
    async (c) => {
      const request = c.req.valid("json");
      const prepared = await deps.runtime.prepare(toGenerationParams(request));
      const meta = newCompletionMeta(deps.runtime.state.modelId);
      const signal = c.req.raw.signal;
      const id = c.get("requestId");
      const onDone = (result: GenerationResult) =>
        log(
          `${id} generation ${result.stopReason}: ${result.promptTokens} prompt + ` +
            `${result.completionTokens} completion tokens`,
        );
      if (!wantsStream(request)) {
        const result = await deps.runtime.generate(prepared, { signal });
        onDone(result);
        return c.json(completionBody(meta, result));
      }
      const stream = chatCompletionStream({
        meta,
        includeUsage: wantsStreamUsage(request),
        signal,
        generate: (options) => deps.runtime.generate(prepared, options),
        onDone,
        onUnexpected: (error) => log(`${id} stream failed: ${errorName(error)}`),
      });
      return c.body(stream, 200, SSE_HEADERS);
    },
  );
}

/** Name only: an unexpected error's message may hold user text. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
