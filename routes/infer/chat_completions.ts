/**
 * POST /v1/chat/completions — one chat generation, as a JSON body or as server-sent events.
 *
 * Every check that can fail (model ready, context length, grammar) runs before the stream
 * starts, so those failures are ordinary HTTP errors. A client that goes away aborts the
 * generation at once, which frees its slot.
 */
import { Hono } from "hono";
import { INFERENCE_JSON_BODY_ERRORS, renderInferenceError } from "../../errors/inference_errors.ts";
import type { InferenceRuntime, PreparedGeneration } from "../../inference/llama_runtime.ts";
import {
  completionBody,
  type CompletionMeta,
  contentChunk,
  finishChunk,
  type GenerationResult,
  newCompletionMeta,
  roleChunk,
  sseFrame,
  toGenerationParams,
  usageChunk,
  wantsStream,
  wantsStreamUsage,
} from "../../inference/openai_adapter.ts";
import { jsonBody } from "../../middleware/json_body.ts";
import type { RequestIdVariables } from "../../middleware/request_id.ts";
import { ChatCompletionRequestSchema } from "../../schemas/openai.ts";

/** What the chat completions route uses. */
export interface ChatCompletionsRouteDeps {
  runtime: InferenceRuntime;
  /** Where a failure in the middle of a stream is logged (stderr by default). */
  log?: (line: string) => void;
}

const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

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
      const stream = eventStream(deps.runtime, prepared, {
        meta,
        includeUsage: wantsStreamUsage(request),
        signal,
        onDone,
        onError: (error) => log(`${id} stream failed: ${errorName(error)}`),
      });
      return c.body(stream, 200, SSE_HEADERS);
    },
  );
}

interface EventStreamOptions {
  meta: CompletionMeta;
  includeUsage: boolean;
  signal: AbortSignal;
  onDone: (result: GenerationResult) => void;
  onError: (error: unknown) => void;
}

/** The SSE body: role chunk, content chunks, finish chunk, optional usage chunk, `[DONE]`. */
function eventStream(
  runtime: InferenceRuntime,
  prepared: PreparedGeneration,
  options: EventStreamOptions,
): ReadableStream<Uint8Array> {
  const { meta, includeUsage } = options;
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const stop = () => abort.abort();
  options.signal.addEventListener("abort", stop, { once: true });
  let open = true;

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (data: Parameters<typeof sseFrame>[0]) => {
        if (open) controller.enqueue(encoder.encode(sseFrame(data)));
      };
      const close = () => {
        options.signal.removeEventListener("abort", stop);
        if (open) controller.close();
        open = false;
      };
      send(roleChunk(meta, { includeUsage }));
      runtime.generate(prepared, {
        signal: abort.signal,
        onText: (text) => text && send(contentChunk(meta, text, { includeUsage })),
      }).then((result) => {
        options.onDone(result);
        if (result.stopReason === "abort") return close();
        send(finishChunk(meta, result.stopReason, { includeUsage }));
        if (includeUsage) send(usageChunk(meta, result));
        send("[DONE]");
        close();
      }).catch((error) => {
        const rendered = renderInferenceError(error);
        if (rendered.unexpected) options.onError(error);
        send(rendered.body);
        close();
      });
    },
    cancel() {
      open = false;
      stop();
    },
  });
}

/** Name only: an unexpected error's message may hold user text. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
