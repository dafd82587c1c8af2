/**
 * A small server on 127.0.0.1:0 that answers the parts of the local model runner's documented
 * API (Ollama, docs/api.md) that engine-one uses: `GET /api/tags` and non-streaming
 * `POST /api/chat` with a JSON Schema `format`. It "translates" by tagging each text, so tests
 * can see which text went where; scripted answers replace that to exercise repairs.
 */

/** A model the stand-in lists. */
export const STAND_IN_MODEL = "tolk-test:latest";

/**
 * One scripted reply to `/api/chat`: raw message content, an HTTP error, or a 200 whose whole
 * body is `body` (a proxy's odd answer: NDJSON lines, SSE events, garbage).
 */
export type ScriptedReply =
  | { content: string; doneReason?: "stop" | "length" }
  | { status: number; error: string }
  | { body: string; contentType: string };

/** Options of {@link startOllamaStandIn}. */
export interface OllamaStandInOptions {
  /** Models listed by `/api/tags` (default one: {@link STAND_IN_MODEL}). */
  models?: string[];
  /** Replies used, in order, before falling back to the tagging translator. */
  script?: ScriptedReply[];
  /** Replaces the tagging translator: what the runner answers for an item's text. */
  translate?: (text: string) => string;
  /**
   * What the translator does with the prompt's glossary: `ignore` it (default, a model that does
   * not follow terms) or `apply` it (replace each term by its translation first).
   */
  glossary?: "ignore" | "apply";
  /**
   * Awaited once a chat request is read and recorded, before it is answered: a test learns that
   * the service has sent a request (the work it follows is under way) and holds the answer.
   */
  beforeAnswer?: () => Promise<void>;
  /** `details.family` of listed models by name (default `llama`): `bert` for an embedding model. */
  families?: Record<string, string>;
  /**
   * `remote_host` of listed models by name: Ollama's cloud models (`gpt-oss:120b-cloud`), which
   * it lists beside the pulled ones and runs on `https://ollama.com:443`.
   */
  remoteHosts?: Record<string, string>;
}

/** A running stand-in. */
export interface OllamaStandIn {
  baseUrl: string;
  /** Every `/api/chat` request body received, in order. */
  chats: Record<string, unknown>[];
  /** Replies still to be used. */
  script: ScriptedReply[];
  stop(): Promise<void>;
}

/** A stand-in that holds every chat request until released. */
export interface HoldingStandIn {
  runner: OllamaStandIn;
  /**
   * Settles once the first chat request has arrived: the work it serves is under way.
   *
   * @throws {Error} when none arrives within 30 s (the service never reached the runner).
   */
  received(): Promise<void>;
  /** Answers the held requests, and every later one at once. */
  release(): void;
}

/**
 * Starts a stand-in that answers no chat request until `release()`: a test learns that work is
 * in flight (`received`) and decides when it ends, instead of sleeping and hoping.
 *
 * @example
 * ```ts
 * const held = startHoldingStandIn();
 * try { …; await held.received(); …; held.release(); } finally { held.release(); await held.runner.stop(); }
 * ```
 */
export function startHoldingStandIn(): HoldingStandIn {
  const received = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  const runner = startOllamaStandIn({
    beforeAnswer: () => {
      received.resolve();
      return gate.promise;
    },
  });
  return {
    runner,
    received: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, fail) => {
        timer = setTimeout(
          () => fail(new Error("no chat request reached the runner in 30 s")),
          30_000,
        );
      });
      try {
        await Promise.race([received.promise, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    release: () => gate.resolve(),
  };
}

/** What the tagging translator writes for `text` (tests compare against it). */
export function standInTranslation(text: string): string {
  return `[translated] ${text}`;
}

/**
 * Starts the stand-in.
 *
 * @example
 * ```ts
 * const runner = startOllamaStandIn();
 * try { await fetch(`${runner.baseUrl}/api/tags`); } finally { await runner.stop(); }
 * ```
 */
export function startOllamaStandIn(options: OllamaStandInOptions = {}): OllamaStandIn {
  const models = options.models ?? [STAND_IN_MODEL];
  const chats: Record<string, unknown>[] = [];
  const script = [...(options.script ?? [])];
  const translate = options.translate ?? standInTranslation;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const glossary = options.glossary ?? "ignore";
      const { beforeAnswer } = options;
      const families = options.families ?? {};
      const remoteHosts = options.remoteHosts ?? {};
      const state = {
        models,
        chats,
        script,
        translate,
        glossary,
        families,
        remoteHosts,
        beforeAnswer,
      };
      const response = await route(request, state);
      // No keep-alive: once stopped, the stand-in is gone, as a stopped runner is (a graceful
      // shutdown would still serve idle pooled connections).
      response.headers.set("connection", "close");
      return response;
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    chats,
    script,
    stop: () => server.shutdown(),
  };
}

interface StandInState {
  models: string[];
  chats: Record<string, unknown>[];
  script: ScriptedReply[];
  translate: (text: string) => string;
  glossary: "ignore" | "apply";
  families: Record<string, string>;
  remoteHosts: Record<string, string>;
  beforeAnswer?: () => Promise<void>;
}

function route(
  request: Request,
  state: StandInState,
): Response | Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method === "GET" && pathname === "/api/tags") {
    return tags(state);
  }
  if (request.method === "POST" && pathname === "/api/chat") return chat(request, state);
  return new Response("404 page not found", { status: 404 });
}

function tags({ models, families, remoteHosts }: StandInState): Response {
  return Response.json({
    models: models.map((name) => ({
      name,
      model: name,
      ...(remoteHosts[name]
        ? { remote_model: name.replace(/-cloud$/, ""), remote_host: remoteHosts[name] }
        : {}),
      modified_at: "2026-11-01T10:00:00.000000000Z",
      size: 1_234_567,
      digest: "0".repeat(64),
      details: {
        parent_model: "",
        format: "gguf",
        family: families[name] ?? "llama",
        families: [families[name] ?? "llama"],
        parameter_size: "1B",
        quantization_level: "Q4_K_M",
      },
    })),
  });
}

async function chat(
  request: Request,
  state: StandInState,
): Promise<Response> {
  let body: Record<string, unknown>;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "invalid character in request body" }, { status: 400 });
  }
  state.chats.push(body);
  await state.beforeAnswer?.();
  const model = String(body.model ?? "");
  // As Ollama does, a name without a tag means its `:latest`.
  if (!state.models.some((name) => name === model || name === `${model}:latest`)) {
    return Response.json(
      { error: `model "${model}" not found, try pulling it first` },
      { status: 404 },
    );
  }
  const scripted = state.script.shift();
  if (scripted && "status" in scripted) {
    return Response.json({ error: scripted.error }, { status: scripted.status });
  }
  if (scripted && "body" in scripted) {
    return new Response(scripted.body, { headers: { "content-type": scripted.contentType } });
  }
  const content = scripted?.content ??
    tagTranslations(body, state.translate, state.glossary === "apply");
  return Response.json({
    model,
    created_at: new Date().toISOString(),
    message: { role: "assistant", content },
    done: true,
    done_reason: scripted?.doneReason ?? "stop",
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: 10,
    prompt_eval_duration: 100_000,
    eval_count: 10,
    eval_duration: 100_000,
  });
}

/** Answers every item of the user payload, in the shape the `format` schema asks for. */
function tagTranslations(
  body: Record<string, unknown>,
  translate: (text: string) => string,
  applyGlossary: boolean,
): string {
  const messages = body.messages as { role: string; content: string }[];
  const payload = JSON.parse(messages.find((m) => m.role === "user")!.content) as {
    items: { id: string; text: string }[];
  };
  const format = body.format as { properties: Record<string, { type: string }> };
  const answer: Record<string, unknown> = {};
  for (const { id, text } of payload.items) {
    const translated = translate(
      promptTerms(applyGlossary ? messages : []).reduce(
        (done, [term, target]) =>
          // A term's words may be apart by white space or placeholders ("<x1>New</x1> York"),
          // an inline element or a soft hyphen may cut a word ("<x1>Ser</x1>ver"); like a model that keeps the
          // tags, they follow the translation. Like a model, it
          // reads a typographic apostrophe or hyphen as the ASCII one.
          done.replace(
            new RegExp(
              [...term].map((char) =>
                char === " " ? String.raw`(?:\s|</?x\d+/?>)+` : escapeRegExp(char)
              ).join(String.raw`(?:</?x\d+>|[\u00ad\u200b\u2060\ufeff])*`)
                .replace(/['\u2018\u2019\u02bc]/g, "['\u2018\u2019\u02bc]")
                .replace(/[-\u2010\u2011]/g, "[-\u2010\u2011]"),
              "gi",
            ),
            (found) => target + (found.match(/<\/?x\d+\/?>/g) ?? []).join(""),
          ),
        text,
      ),
    );
    answer[id] = format.properties[id]?.type === "object"
      ? { text: translated, alternatives: [`${translated} (2)`, `${translated} (3)`] }
      : translated;
  }
  return JSON.stringify(answer);
}

/**
 * The `"term" → "translation"` pairs of the prompt's glossary line (kept terms map to
 * themselves): what the service told the model.
 */
export function promptTerms(messages: { role: string; content: string }[]): [string, string][] {
  const system = messages.find((m) => m.role === "system")?.content ?? "";
  const line = system.split("\n").find((l) => l.startsWith("Glossary")) ?? "";
  const pairs: [string, string][] = [];
  for (
    const match of line.matchAll(/("(?:[^"\\]|\\.)*") → ("(?:[^"\\]|\\.)*"|do not translate)/g)
  ) {
    const term = JSON.parse(match[1]);
    pairs.push([term, match[2].startsWith('"') ? JSON.parse(match[2]) : term]);
  }
  return pairs;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
