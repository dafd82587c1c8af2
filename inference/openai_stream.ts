/**
 * The server-sent event stream of a chat completion, as a state machine over one generation:
 * role chunk → content chunks → finish chunk → usage chunk (with `include_usage`) → `[DONE]`.
 *
 * A client that goes away aborts the generation at once and nothing more is written; a failure
 * in the middle of the stream becomes one error event (the service's error body) and the stream
 * ends without `[DONE]`, so a client cannot mistake a cut answer for a complete one.
 */
import { renderInferenceError } from "../errors/inference_errors.ts";
import type { GenerateOptions, GenerationResult } from "./generation.ts";
import {
  type CompletionMeta,
  contentChunk,
  finishChunk,
  roleChunk,
  sseFrame,
  usageChunk,
} from "./openai_adapter.ts";

/** Response headers of an event stream (no proxy buffering, no caching). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

/** Options of {@link chatCompletionStream}. */
export interface ChatStreamOptions {
  meta: CompletionMeta;
  /** `stream_options.include_usage`: every chunk carries `usage: null`, then a usage chunk. */
  includeUsage: boolean;
  /** The request's signal: its abort (the client went away) stops the generation. */
  signal: AbortSignal;
  /** Starts the generation; pieces of text arrive through `onText`. */
  generate: (options: GenerateOptions) => Promise<GenerationResult>;
  /** Called once with the result of a generation that ended (aborted ones included). */
  onDone?: (result: GenerationResult) => void;
  /** Called with an error the service did not expect (the caller logs it). */
  onUnexpected?: (error: unknown) => void;
}

/**
 * The SSE body of one streamed completion.
 *
 * @example
 * ```ts
 * const body = chatCompletionStream({
 *   meta, includeUsage: false, signal: c.req.raw.signal,
 *   generate: (options) => runtime.generate(prepared, options),
 * });
 * return c.body(body, 200, SSE_HEADERS);
 * ```
 */
export function chatCompletionStream(options: ChatStreamOptions): ReadableStream<Uint8Array> {
  const { meta, includeUsage } = options;
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const stop = () => abort.abort();
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
      if (options.signal.aborted) abort.abort();
      else options.signal.addEventListener("abort", stop, { once: true });
      send(roleChunk(meta, { includeUsage }));
      let generation: Promise<GenerationResult>;
      let sentLogprobs = 0;
      try {
        generation = options.generate({
          signal: abort.signal,
          onText: (text, logprobs) => {
            if (!text) return;
            sentLogprobs += logprobs?.length ?? 0;
            send(contentChunk(meta, text, { includeUsage, logprobs }));
          },
        });
      } catch (error) {
        generation = Promise.reject(error);
      }
      generation.then((result) => {
        options.onDone?.(result);
        if (result.stopReason === "abort") return close();
        // Each token's log probability went with the text it ended in, as OpenAI streams them;
        // any not sent yet go here. None left is `logprobs: null`, as OpenAI and llama-server
        // end a stream, not an empty list.
        const rest = result.logprobs?.slice(sentLogprobs);
        const logprobs = rest?.length ? rest : undefined;
        send(finishChunk(meta, { ...result, logprobs }, { includeUsage }));
        if (includeUsage) send(usageChunk(meta, result));
        send("[DONE]");
        close();
      }).catch((error) => {
        const rendered = renderInferenceError(error);
        if (rendered.unexpected) options.onUnexpected?.(error);
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
