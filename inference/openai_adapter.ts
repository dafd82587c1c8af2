/**
 * The OpenAI layer of `tolk infer`, as pure functions: a chat-completions request becomes the
 * runtime's generation parameters, and a generation result becomes a body, a stream chunk, a
 * usage object or a server-sent event frame. No Hono, no runtime: tested in-process.
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  ChatMessage,
  ChoiceLogprobs,
  FinishReason,
  OpenAiModel,
  OpenAiUsage,
} from "../schemas/openai.ts";
import type {
  ChatTurn,
  GenerationParams,
  GenerationResult,
  OutputFormat,
  RuntimeState,
  StopReason,
} from "./generation.ts";
import { toJsonOutputFormat } from "./json_schema_grammar.ts";

/** Identity shared by the body or every chunk of one completion. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

/** OpenAI's default sampling (temperature 1, top_p 1), not node-llama-cpp's greedy default. */
export const DEFAULT_TEMPERATURE = 1;
/** See {@link DEFAULT_TEMPERATURE}. */
export const DEFAULT_TOP_P = 1;

/**
 * Maps a validated request to generation parameters.
 *
 * @throws {GenerationError} `grammar` for a `response_format` schema no grammar enforces.
 */
export function toGenerationParams(request: ChatCompletionRequest): GenerationParams {
  const stop = request.stop == null ? [] : typeof request.stop === "string" ? [request.stop] : [
    ...request.stop,
  ];
  return {
    turns: request.messages.map(toChatTurn),
    maxTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    // The newer field wins, as OpenAI reads them; a refusal names the one the client wrote.
    maxTokensField: request.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens",
    temperature: request.temperature ?? DEFAULT_TEMPERATURE,
    topP: request.top_p ?? DEFAULT_TOP_P,
    frequencyPenalty: request.frequency_penalty ?? 0,
    presencePenalty: request.presence_penalty ?? 0,
    seed: request.seed ?? undefined,
    logitBias: request.logit_bias
      ? Object.entries(request.logit_bias).map(([token, bias]) => ({ token: Number(token), bias }))
      : undefined,
    logprobs: request.logprobs ? { top: request.top_logprobs ?? 0 } : undefined,
    stop: stop.filter((s) => s !== ""),
    format: toOutputFormat(request.response_format),
  };
}

/** True when the request asks for server-sent events. */
export function wantsStream(request: ChatCompletionRequest): boolean {
  return request.stream === true;
}

/** True when a streamed answer ends with a usage chunk. */
export function wantsStreamUsage(request: ChatCompletionRequest): boolean {
  return request.stream_options?.include_usage === true;
}

/** The contract's `finish_reason` for a runtime stop reason. */
export function finishReasonOf(stopReason: StopReason): FinishReason {
  return stopReason === "maxTokens" ? "length" : "stop";
}

/** The usage object of a result (real token counts). */
export function usageOf(
  result: Pick<GenerationResult, "promptTokens" | "completionTokens">,
): OpenAiUsage {
  return {
    prompt_tokens: result.promptTokens,
    completion_tokens: result.completionTokens,
    total_tokens: result.promptTokens + result.completionTokens,
  };
}

/** The non-streamed `chat.completion` body. */
export function completionBody(meta: CompletionMeta, result: GenerationResult): ChatCompletion {
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{
      index: 0,
      message: { role: "assistant", content: result.text },
      logprobs: logprobsOf(result),
      finish_reason: finishReasonOf(result.stopReason),
    }],
    usage: usageOf(result),
  };
}

/** Options of the chunk builders. */
export interface ChunkOptions {
  /** With `include_usage`, every chunk carries `usage: null` until the usage chunk. */
  includeUsage?: boolean;
}

/** The first chunk: the assistant role with empty content. */
export function roleChunk(meta: CompletionMeta, options: ChunkOptions = {}): ChatCompletionChunk {
  return chunk(meta, { role: "assistant", content: "" }, null, options);
}

/** A chunk carrying the next piece of text, and its tokens' logprobs if asked. */
export function contentChunk(
  meta: CompletionMeta,
  text: string,
  options: ChunkOptions & Pick<GenerationResult, "logprobs"> = {},
): ChatCompletionChunk {
  const body = chunk(meta, { content: text }, null, options);
  body.choices[0].logprobs = logprobsOf(options);
  return body;
}

/**
 * The last choice chunk: empty delta, the finish reason, and the logprobs (if asked) of the
 * tokens `result` lists, those not sent with text yet in a stream.
 */
export function finishChunk(
  meta: CompletionMeta,
  result: Pick<GenerationResult, "stopReason" | "logprobs">,
  options: ChunkOptions = {},
): ChatCompletionChunk {
  const body = chunk(meta, {}, finishReasonOf(result.stopReason), options);
  body.choices[0].logprobs = logprobsOf(result);
  return body;
}

/** OpenAI's `logprobs` of a choice: null unless the request asked for them. */
export function logprobsOf(result: Pick<GenerationResult, "logprobs">): ChoiceLogprobs | null {
  if (!result.logprobs) return null;
  return {
    content: result.logprobs.map((entry) => ({
      token: entry.text,
      logprob: entry.logprob,
      bytes: entry.bytes,
      top_logprobs: entry.top.map((top) => ({
        token: top.text,
        logprob: top.logprob,
        bytes: top.bytes,
      })),
    })),
    refusal: null,
  };
}

/** The usage chunk sent after the finish chunk when `include_usage` is set. */
export function usageChunk(meta: CompletionMeta, result: GenerationResult): ChatCompletionChunk {
  return {
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices: [],
    usage: usageOf(result),
  };
}

/** One server-sent event frame: `data: <json>\n\n`, or the `data: [DONE]` end marker. */
export function sseFrame(data: ChatCompletionChunk | object | "[DONE]"): string {
  return `data: ${data === "[DONE]" ? data : JSON.stringify(data)}\n\n`;
}

/** The Model entry of the served file (for /v1/models and /v1/status). */
export function modelEntry(state: Pick<RuntimeState, "modelId" | "modelStatus">): OpenAiModel {
  return {
    id: state.modelId,
    object: "model",
    owned_by: "local",
    format: "gguf",
    status: state.modelStatus,
  };
}

/** A fresh completion identity (`chatcmpl-<uuid>`, epoch seconds). */
export function newCompletionMeta(model: string, now = Date.now()): CompletionMeta {
  return { id: `chatcmpl-${crypto.randomUUID()}`, created: Math.floor(now / 1000), model };
}

function chunk(
  meta: CompletionMeta,
  delta: ChatCompletionChunk["choices"][number]["delta"],
  finishReason: FinishReason | null,
  options: ChunkOptions,
): ChatCompletionChunk {
  const body: ChatCompletionChunk = {
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  if (options.includeUsage) body.usage = null;
  return body;
}

function toChatTurn(message: ChatMessage): ChatTurn {
  // Parts are lines, as llama-server joins them: run together, "Translate:" + "Hi" read as
  // "Translate:Hi".
  const text = typeof message.content === "string"
    ? message.content
    : (message.content ?? []).map((part) => part.type === "text" ? part.text : part.refusal)
      .join("\n");
  switch (message.role) {
    case "system":
    case "developer":
      return { role: "system", text };
    case "assistant":
      return { role: "assistant", text };
    default:
      return { role: "user", text };
  }
}

function toOutputFormat(format: ChatCompletionRequest["response_format"]): OutputFormat {
  if (!format || format.type === "text") return { kind: "text" };
  if (format.type === "json_object") return { kind: "json" };
  return toJsonOutputFormat(format.json_schema.schema);
}
