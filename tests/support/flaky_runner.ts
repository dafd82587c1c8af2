/**
 * A flaky model runner on raw TCP in front of a well-behaved one (the Ollama or chat-completions
 * stand-in): each chat request is read whole, then either passed on and its answer sent back, or
 * failed the way a local runner fails — a busy answer, a connection closed without an answer (a
 * runner crashing mid-generation while a non-streaming request waits for its headers), or silence
 * (a model still loading, a generation that stalled). Raw TCP because an HTTP server library
 * always answers something.
 */
import { readRawRequest } from "./raw_tcp.ts";

/** How one chat request is failed; undefined passes it on. */
export type RunnerFault =
  | "close"
  | "stall"
  | { status: number; headers?: Record<string, string>; body: string };

/** One chat request as the flaky runner received it. */
export interface ReceivedChat {
  /** The texts of the request's payload, in order. */
  texts: string[];
  body: Record<string, unknown>;
}

/** A running flaky runner. */
export interface FlakyRunner {
  baseUrl: string;
  /** Every chat request received, failed or passed on, in order. */
  chats: ReceivedChat[];
  stop(): Promise<void>;
}

/**
 * Starts the flaky runner; `fault` decides each chat request's fate from it and the number of
 * earlier chat requests with the same texts (0 the first time a batch is asked).
 *
 * @example
 * ```ts
 * const flaky = startFlakyRunner(runner.baseUrl, (chat, asked) => asked === 0 ? "close" : undefined);
 * ```
 */
export function startFlakyRunner(
  upstream: string,
  fault: (chat: ReceivedChat, asked: number) => RunnerFault | undefined,
): FlakyRunner {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const chats: ReceivedChat[] = [];
  const open = new Set<Deno.Conn>();
  const serving = (async () => {
    for await (const conn of listener) {
      open.add(conn);
      serve(conn, upstream, chats, fault).catch(() => {}).finally(() => {
        open.delete(conn);
        try {
          conn.close();
        } catch { /* closed by the client */ }
      });
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    chats,
    stop: async () => {
      listener.close();
      for (const conn of open) conn.close();
      await serving.catch(() => {});
    },
  };
}

async function serve(
  conn: Deno.Conn,
  upstream: string,
  chats: ReceivedChat[],
  fault: (chat: ReceivedChat, asked: number) => RunnerFault | undefined,
): Promise<void> {
  const request = await readRawRequest(conn);
  if (request === null) throw new Error("the client closed before its request was whole");
  const { method, path, body } = request;
  let failure: RunnerFault | undefined;
  if (method === "POST") {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const chat = { texts: payloadTexts(parsed), body: parsed };
    const asked = chats.filter((earlier) => sameTexts(earlier.texts, chat.texts)).length;
    chats.push(chat);
    failure = fault(chat, asked);
  }
  if (failure === "close") return;
  if (failure === "stall") {
    // Until the client gives up and closes its side.
    while (await conn.read(new Uint8Array(1024)) !== null) { /* nothing more is sent */ }
    return;
  }
  const answer = failure ?? await passOn(upstream, method, path, body);
  const bytes = new TextEncoder().encode(answer.body);
  const headers = Object.entries({ "content-type": "application/json", ...answer.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`).join("");
  await conn.write(
    new TextEncoder().encode(
      `HTTP/1.1 ${answer.status} X\r\n${headers}content-length: ${bytes.length}\r\n` +
        `connection: close\r\n\r\n`,
    ),
  );
  await conn.write(bytes);
}

async function passOn(upstream: string, method: string, path: string, body: string) {
  const response = await fetch(`${upstream}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: method === "POST" ? body : undefined,
  });
  return {
    status: response.status,
    headers: { "content-type": response.headers.get("content-type") ?? "application/json" },
    body: await response.text(),
  };
}

/** The texts of a chat request's payload (the last user message, JSON with `items`). */
function payloadTexts(body: Record<string, unknown>): string[] {
  const messages = body.messages as { role: string; content: string }[];
  const user = messages.findLast((message) => message.role === "user")?.content ?? "{}";
  const items = (JSON.parse(user) as { items?: { text: string }[] }).items ?? [];
  return items.map((item) => item.text);
}

function sameTexts(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((text, index) => text === b[index]);
}
