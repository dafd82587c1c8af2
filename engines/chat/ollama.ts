/**
 * The Ollama engine (wire id `engine-one`): the local model runner's native API — models from
 * `/api/tags`, translation through `/api/chat` with a JSON Schema in `format`, `think: false`,
 * `keep_alive`, and `options.num_ctx` / `options.temperature` / `options.num_predict`.
 */
import type { EngineId } from "../../schemas/languages.ts";
import type { Settings } from "../../schemas/settings.ts";
import type { Engine } from "../engine.ts";
import { EngineFailedError } from "../engine.ts";
import { toChatMessages } from "./translation_protocol.ts";
import { BackendHttpError, chatAnswerMaxBytes, requestJson, serverRoot } from "./backend_http.ts";
import {
  type Completion,
  type CompletionRequest,
  ContextOverflowError,
} from "./batch_translation.ts";
import { type ChatBackend, createChatEngine, sharedEngineOptions } from "./chat_engine.ts";
import type { ListedModel } from "./backend_status.ts";
import { saysTooLongForContext } from "./context_refusal.ts";
import { clip } from "./backend_messages.ts";
import { embeddingModel } from "./embedding_models.ts";
import { answerInReasoning } from "./reasoning_answers.ts";
import { cutShort, ollamaChatFromLines } from "./streamed_answer.ts";

/** The `engines["engine-one"]` settings section. */
export type OllamaSettings = Settings["engines"]["engine-one"];

/** The wire id of the Ollama engine in requests, settings and capabilities. */
export const OLLAMA_ENGINE_ID = "engine-one" satisfies EngineId;
const ENGINE = OLLAMA_ENGINE_ID;

/**
 * Creates the Ollama engine (`engine-one`) from its settings.
 *
 * @example
 * ```ts
 * const engine = createOllamaEngine(settings.engines["engine-one"]);
 * ```
 */
export function createOllamaEngine(settings: OllamaSettings): Engine {
  return createChatEngine({
    id: ENGINE,
    name: "Local model runner (Ollama)",
    backend: settings.base_url ? createOllamaBackend(settings.base_url, settings) : null,
    contextTokens: settings.num_ctx,
    ...sharedEngineOptions(settings),
  });
}

function createOllamaBackend(baseUrl: string, settings: OllamaSettings): ChatBackend {
  // Ollama's API reference gives its address with `/api`; its OpenAI layer's with `/v1`.
  const root = serverRoot(baseUrl, ["/api/chat", "/api", "/v1/chat/completions", "/v1"]);

  async function listModels(): Promise<ListedModel[]> {
    const body = await requestJson({
      engine: ENGINE,
      url: `${root}/api/tags`,
      timeoutMs: settings.probe_timeout_ms,
    });
    const models = (body as { models?: unknown }).models;
    if (!Array.isArray(models)) {
      throw new EngineFailedError(ENGINE, "GET /api/tags did not answer a model list");
    }
    return models.flatMap((entry) => {
      const model = entry as {
        name?: unknown;
        model?: unknown;
        details?: unknown;
        remote_host?: unknown;
      };
      const id = model.name ?? model.model;
      if (typeof id !== "string" || id === "") return [];
      const details = (model.details ?? {}) as { family?: unknown; families?: unknown };
      const families = [
        details.family,
        ...(Array.isArray(details.families) ? details.families : []),
      ];
      const unavailable = remoteModel(model.remote_host) ?? embeddingModel(id, families);
      return [unavailable ? { id, unavailable } : { id }];
    });
  }

  async function complete(request: CompletionRequest): Promise<Completion> {
    let body: unknown;
    try {
      body = await requestJson({
        engine: ENGINE,
        url: `${root}/api/chat`,
        method: "POST",
        timeoutMs: settings.request_timeout_ms,
        maxBytes: chatAnswerMaxBytes(request.maxTokens),
        signal: request.signal,
        assembleStream: ollamaChatFromLines,
        body: {
          model: request.model,
          messages: toChatMessages(request.messages),
          stream: false,
          format: request.schema,
          // Thinking is on by default for a model that can (Ollama 0.9+): its reasoning would
          // spend the answer's token cap before the translation. Ollama refuses only `true`
          // for a model that cannot think; earlier releases ignore the unknown field.
          think: false,
          keep_alive: settings.keep_alive,
          options: {
            num_ctx: settings.num_ctx,
            temperature: request.temperature,
            num_predict: request.maxTokens,
          },
        },
      });
    } catch (error) {
      // Too long for the context, or a body over what a proxy in front of the runner takes
      // (413): sent again in halves.
      if (
        error instanceof BackendHttpError &&
        (error.status === 413 || saysTooLongForContext(error.backendMessage))
      ) {
        throw new ContextOverflowError(error.backendMessage, { cause: error });
      }
      throw error;
    }
    // One line of a stream, cut after it, is JSON too; Ollama's one-piece answer says done.
    if ((body as { done?: unknown }).done === false) {
      body = ollamaChatFromLines({ events: [body as Record<string, unknown>], done: false });
    }
    const unreadable = cutShort(body);
    if (unreadable !== undefined) return { content: "", truncated: false, unreadable };
    const answer = body as {
      message?: { content?: unknown; thinking?: unknown };
      done_reason?: unknown;
    };
    const content = answer.message?.content;
    if (typeof content !== "string") {
      throw new EngineFailedError(ENGINE, "the /api/chat answer holds no message content");
    }
    // A thinking model (thinking is on by default for those that can) may have its whole output,
    // the format-bound JSON included, routed into `thinking` and `content` left empty: parsed
    // there, strictly as ever; reasoning in words is no answer (reasoning_answers.ts).
    const thinking = answer.message?.thinking;
    const text = content.trim() === "" && typeof thinking === "string"
      ? answerInReasoning(thinking)
      : content;
    return { content: text, truncated: answer.done_reason === "length" };
  }

  return { listModels, complete, sameModel: sameOllamaModel, missingModelRemedy: pullCommand };
}

/**
 * Why a model `/api/tags` lists with a `remote_host` cannot be used: it is one of Ollama's cloud
 * models (`gpt-oss:120b-cloud`), which the runner serves by sending the request on to that host
 * (`https://ollama.com:443`). tolk forwards no text off the machine (DECISIONS.md), and Ollama
 * lists the newest model first, so a cloud model tried once would otherwise become the default.
 */
function remoteModel(host: unknown): string | undefined {
  if (typeof host !== "string" || host === "") return undefined;
  return `it runs on ${clip(host)}, not on this machine, and no text is forwarded elsewhere`;
}

/**
 * Ollama serves only the models it has pulled (its own 404 says "try pulling it first"): the
 * command that does, for the name as the user wrote it.
 */
function pullCommand(wanted: string): string {
  return `fetch it with \`ollama pull ${wanted}\``;
}

/**
 * Ollama reads a name without a tag as `:latest` (`qwen2.5` is `qwen2.5:latest`) and lists
 * names with their tag. The tag follows a `:` in the last path segment: a registry host may carry
 * a port (`localhost:5000/team/qwen2.5`).
 */
function sameOllamaModel(wanted: string, listed: string): boolean {
  return withTag(wanted) === withTag(listed);
}

function withTag(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1).includes(":") ? name : `${name}:latest`;
}
