/**
 * A small server on 127.0.0.1:0 that answers the two paths of the chat-completions API (OpenAI's,
 * as `tolk infer` and LM Studio serve it) that engine-two and compatible-api use:
 * `GET /v1/models` with the entries a test gives, and `POST /v1/chat/completions` with scripted
 * replies, so that tests can make a backend answer what a real one rarely does.
 */

/** A scripted HTTP answer: a JSON body, or a string sent as plain text. */
export interface StandInReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Options of {@link startChatCompletionsStandIn}. */
export interface ChatCompletionsStandInOptions {
  /** `data` of `/v1/models` (default: one model, `stand-in`, without a status). */
  models?: Record<string, unknown>[];
  /** Answers `/v1/models` instead of the list (an error, say). */
  modelsReply?: StandInReply;
  /** The message contents or HTTP answers of `/v1/chat/completions`, in order. */
  completions?: (string | StandInReply)[];
}

/** A running stand-in. */
export interface ChatCompletionsStandIn {
  baseUrl: string;
  /** Every `/v1/chat/completions` request body received, in order. */
  chats: Record<string, unknown>[];
  stop(): Promise<void>;
}

/**
 * Starts the stand-in.
 *
 * @example
 * ```ts
 * const backend = startChatCompletionsStandIn({ completions: ['{"1": "Hello"}'] });
 * try { await fetch(`${backend.baseUrl}/v1/models`); } finally { await backend.stop(); }
 * ```
 */
export function startChatCompletionsStandIn(
  options: ChatCompletionsStandInOptions = {},
): ChatCompletionsStandIn {
  const models = options.models ?? [{ id: "stand-in" }];
  const completions = [...(options.completions ?? [])];
  const chats: Record<string, unknown>[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const { pathname } = new URL(request.url);
      if (request.method === "GET" && pathname === "/v1/models") {
        return reply(
          options.modelsReply ?? { status: 200, body: { object: "list", data: models } },
        );
      }
      if (request.method !== "POST" || pathname !== "/v1/chat/completions") {
        return reply({ status: 404, body: { error: { message: "not found" } } });
      }
      const body = await request.json();
      chats.push(body);
      const next = completions.shift() ??
        { status: 500, body: { error: { message: "unscripted" } } };
      return reply(typeof next === "string" ? completion(body.model, next) : next);
    },
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    chats,
    stop: () => server.shutdown(),
  };
}

function reply({ status, body, headers }: StandInReply): Response {
  return typeof body === "string"
    ? new Response(body, { status, headers: { "content-type": "text/plain", ...headers } })
    : Response.json(body, { status, headers });
}

function completion(model: string, content: string): StandInReply {
  return {
    status: 200,
    body: {
      id: "chatcmpl-stand-in",
      object: "chat.completion",
      created: 1_800_000_000,
      model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    },
  };
}

/**
 * A scripted 200 chat completion whose message is `message` (after `role: "assistant"`), ended
 * by `finishReason`: the shapes of odd answers that tests put in a stand-in's `completions`.
 */
export function chatCompletion(
  message: Record<string, unknown>,
  finishReason = "stop",
): StandInReply {
  return {
    status: 200,
    body: {
      object: "chat.completion",
      model: "tiny",
      choices: [{
        index: 0,
        message: { role: "assistant", ...message },
        finish_reason: finishReason,
      }],
    },
  };
}
