/**
 * The OpenAI-style chat-completions protocol (`/v1/models`, `/v1/chat/completions` with
 * `response_format: json_schema`), shared by engine-two and compatible-api.
 */
import type { EngineId } from "../../schemas/languages.ts";
import type { Settings } from "../../schemas/settings.ts";
import { type Engine, EngineFailedError } from "../engine.ts";
import type { Completion, CompletionRequest } from "./batch_translation.ts";
import { ContextOverflowError } from "./batch_translation.ts";
import { toChatMessages } from "./translation_protocol.ts";
import { BackendHttpError, chatAnswerMaxBytes, requestJson, serverRoot } from "./backend_http.ts";
import { clip } from "./backend_messages.ts";
import { type ChatBackend, createChatEngine, sharedEngineOptions } from "./chat_engine.ts";
import type { ListedModel } from "./backend_status.ts";
import { saysTooLongForContext } from "./context_refusal.ts";
import { embeddingModel } from "./embedding_models.ts";
import { answerInReasoning } from "./reasoning_answers.ts";
import { chatCompletionFromChunks, cutShort } from "./streamed_answer.ts";

/** The settings section of a chat-completions engine (`api_key` only for compatible-api). */
export type ChatCompletionsSettings =
  & Settings["engines"]["engine-two"]
  & { api_key?: string | null };

/**
 * Creates an engine that speaks chat completions to `settings.base_url` (not ready when null).
 *
 * @example
 * ```ts
 * const engine = createChatCompletionsEngine(
 *   "engine-two", "Desktop model server (LM Studio)", settings.engines["engine-two"],
 * );
 * ```
 */
export function createChatCompletionsEngine(
  id: EngineId,
  name: string,
  settings: ChatCompletionsSettings,
): Engine {
  const baseUrl = settings.base_url;
  return createChatEngine({
    id,
    name,
    backend: baseUrl
      ? createChatCompletionsBackend({
        engine: id,
        baseUrl,
        apiKey: settings.api_key,
        requestTimeoutMs: settings.request_timeout_ms,
        probeTimeoutMs: settings.probe_timeout_ms,
      })
      : null,
    contextTokens: settings.context_tokens,
    ...sharedEngineOptions(settings),
  });
}

/** Where and how to reach a chat-completions server. */
export interface ChatCompletionsOptions {
  engine: EngineId;
  /** The server's root, before `/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string | null;
  requestTimeoutMs: number;
  probeTimeoutMs: number;
}

/**
 * Makes a backend speaking chat completions.
 *
 * @example
 * ```ts
 * const backend = createChatCompletionsBackend({
 *   engine: "engine-two", baseUrl: "http://127.0.0.1:1234",
 *   requestTimeoutMs: 120_000, probeTimeoutMs: 1_500,
 * });
 * ```
 */
export function createChatCompletionsBackend(options: ChatCompletionsOptions): ChatBackend {
  const root = serverRoot(options.baseUrl);

  async function listModels(): Promise<ListedModel[]> {
    const body = await requestJson({
      engine: options.engine,
      url: `${root}/v1/models`,
      apiKey: options.apiKey,
      timeoutMs: options.probeTimeoutMs,
    });
    const data = (body as { data?: unknown }).data;
    if (!Array.isArray(data)) {
      throw new EngineFailedError(options.engine, "GET /v1/models did not answer a model list");
    }
    return data.flatMap((entry) => {
      const { id, status } = entry as { id?: unknown; status?: unknown };
      if (typeof id !== "string" || id === "") return [];
      // tolk infer's extension: it lists its one model while that is loading, or when its file
      // is missing or invalid, and refuses every request then (503 model_not_ready).
      const unavailable = typeof status === "string" && status !== "valid"
        ? `the server lists it with status "${status}"`
        : embeddingModel(id);
      return [unavailable ? { id, unavailable } : { id }];
    });
  }

  async function complete(request: CompletionRequest): Promise<Completion> {
    let body: unknown;
    try {
      body = await requestJson({
        engine: options.engine,
        url: `${root}/v1/chat/completions`,
        method: "POST",
        apiKey: options.apiKey,
        timeoutMs: options.requestTimeoutMs,
        maxBytes: chatAnswerMaxBytes(request.maxTokens),
        signal: request.signal,
        assembleStream: chatCompletionFromChunks,
        body: {
          model: request.model,
          messages: toChatMessages(request.messages),
          stream: false,
          temperature: request.temperature,
          max_tokens: request.maxTokens,
          response_format: {
            type: "json_schema",
            json_schema: { name: "translations", strict: true, schema: request.schema },
          },
        },
      });
    } catch (error) {
      if (error instanceof BackendHttpError && isContextOverflow(error)) {
        throw new ContextOverflowError(error.backendMessage, { cause: error });
      }
      throw error;
    }
    const unreadable = cutShort(body);
    if (unreadable !== undefined) return { content: "", truncated: false, unreadable };
    const choices = (body as { choices?: unknown }).choices;
    if (Array.isArray(choices) && choices.length === 0) {
      throw new EngineFailedError(options.engine, "the server answered no choice (choices: [])");
    }
    const choice = (Array.isArray(choices) ? choices[0] : undefined) as
      | { message?: ChatMessage; finish_reason?: unknown }
      | undefined;
    const content = choice?.message ? answerText(choice.message) : undefined;
    if (content === undefined) {
      throw new EngineFailedError(options.engine, "the chat completion holds no message content");
    }
    // Asked again, the same text is withheld or refused again: say so at once.
    const refusal = choice?.message?.refusal;
    if (content === "" && typeof refusal === "string" && refusal.trim() !== "") {
      throw new EngineFailedError(options.engine, `the model refused to answer: ${clip(refusal)}`);
    }
    if (content === "" && choice?.finish_reason === "content_filter") {
      throw new EngineFailedError(
        options.engine,
        "the server's content filter withheld the answer (finish_reason content_filter)",
      );
    }
    return { content, truncated: choice?.finish_reason === "length" };
  }

  return { listModels, complete };
}

/**
 * An answer's message, with the reasoning fields of thinking models' servers, and the refusal
 * of OpenAI's structured outputs (content null, the model's words in `refusal`).
 */
interface ChatMessage {
  content?: unknown;
  refusal?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: unknown;
}

/**
 * The text to read an answer from. A server that meets a JSON Schema by tool calling (LiteLLM
 * in front of some providers, a chat template that makes the model call a tool) leaves
 * `content` null or empty and puts the JSON in the first call's `arguments`. A thinking model's
 * server may put the output in `reasoning_content` instead (vLLM's DeepSeek-R1 parser does when
 * the model never writes `</think>`; `reasoning` on others): read when it is the JSON on its own
 * (see reasoning_answers.ts), never a draft its words quote. Either is parsed strictly as ever.
 * A null or blank content with neither is an empty answer, asked again (or split when cut at the token
 * limit) like any other unusable one; undefined only when `content` is something else.
 */
function answerText(message: ChatMessage): string | undefined {
  const text = message.content === null || message.content === undefined
    ? ""
    : textOf(message.content);
  // Blank is empty: the line breaks a thinking model leaves after `</think>` when its output
  // went to the reasoning.
  if (text === undefined || text.trim() !== "") return text;
  const called = toolArguments(message.tool_calls);
  if (called !== undefined) return called;
  const reasoning = [message.reasoning_content, message.reasoning].find((text) =>
    typeof text === "string"
  );
  return typeof reasoning === "string" ? answerInReasoning(reasoning) : "";
}

/** The `arguments` of the first function call, as JSON text (some servers send an object). */
function toolArguments(calls: unknown): string | undefined {
  const first = Array.isArray(calls) ? calls[0] : undefined;
  const args = (first as { function?: { arguments?: unknown } } | undefined)?.function?.arguments;
  if (typeof args === "string") return args;
  return typeof args === "object" && args !== null ? JSON.stringify(args) : undefined;
}

/**
 * A message's text: a string, or the text parts of an array joined (some proxies answer in the
 * request's array form, `[{type: "text", text}]`); undefined for anything else.
 */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((part) =>
    (part as { type?: unknown })?.type === "text" ? (part as { text?: unknown }).text : undefined
  );
  return texts.every((text) => typeof text === "string") && texts.length > 0
    ? texts.join("")
    : undefined;
}

/**
 * A request too big for the server, sent again in halves: longer than the context (OpenAI says
 * `context_length_exceeded`, llama.cpp-style servers say it in words; in a 400, or in a 200 body
 * from a proxy), or a body over the size it or a proxy in front of it takes (413; `tolk infer
 * --max-request-bytes`).
 */
function isContextOverflow(error: BackendHttpError): boolean {
  return error.status === 413 ||
    ((error.status === 400 || error.status < 300) &&
      (error.backendCode === "context_length_exceeded" ||
        saysTooLongForContext(error.backendMessage)));
}
