/**
 * A model server on raw TCP (127.0.0.1:0) whose chat answers can stop anywhere, which a
 * `Deno.serve` stand-in cannot do: the head of a 200 and part of its body, then the connection
 * closed (a runner crashing mid-generation, a proxy's timeout), or a body that is whole on the
 * wire but ends in the middle of its JSON. It lists one model on both APIs (`/v1/models`,
 * `/api/tags`) and answers `POST /v1/chat/completions` and `POST /api/chat` with its script in
 * order, then with `fallback`.
 */
import { serveRawTcp } from "./raw_tcp.ts";

/** The model both model lists name. */
export const CUTTING_MODEL = "tolk-test:latest";

/** One raw answer: the bytes to write before the connection is closed. */
export type RawAnswer = string;

/** Options of {@link startCuttingBackend}. */
export interface CuttingBackendOptions {
  /** Raw answers to the chat requests, in order. */
  script: RawAnswer[];
  /** The answer once the script is used up (default: a 500). */
  fallback?: RawAnswer;
}

/** A running backend. */
export interface CuttingBackend {
  baseUrl: string;
  /** How many chat requests came. */
  chats(): number;
  stop(): Promise<void>;
}

/**
 * A 200 whose head says `declaredLength` bytes (default: the body's own length) and whose body is
 * `body`: shorter than declared, the connection closes mid-answer.
 */
export function jsonAnswer(body: string, declaredLength?: number): RawAnswer {
  const length = declaredLength ?? new TextEncoder().encode(body).length;
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n` +
    `connection: close\r\n\r\n${body}`;
}

/**
 * A 200 in chunked encoding of `contentType` with one chunk per event, its terminating chunk
 * sent only when `whole`: without it, the connection closes in the middle of the stream.
 */
export function chunkedAnswer(events: string[], contentType: string, whole: boolean): RawAnswer {
  const chunks = events.map((event) =>
    `${new TextEncoder().encode(event).length.toString(16)}\r\n${event}\r\n`
  );
  return `HTTP/1.1 200 OK\r\ncontent-type: ${contentType}\r\ntransfer-encoding: chunked\r\n` +
    `connection: close\r\n\r\n${chunks.join("")}${whole ? "0\r\n\r\n" : ""}`;
}

/** A whole chat-completions answer whose message content is `content`. */
export function completionBody(content: string): string {
  return JSON.stringify({
    object: "chat.completion",
    model: CUTTING_MODEL,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

/** A whole `/api/chat` answer whose message content is `content`. */
export function ollamaBody(content: string): string {
  return JSON.stringify({
    model: CUTTING_MODEL,
    message: { role: "assistant", content },
    done: true,
    done_reason: "stop",
  });
}

/**
 * Starts the backend.
 *
 * @example
 * ```ts
 * const backend = startCuttingBackend({ script: [jsonAnswer('{"choices": [', 400)] });
 * try { await fetch(`${backend.baseUrl}/v1/models`); } finally { await backend.stop(); }
 * ```
 */
export function startCuttingBackend(options: CuttingBackendOptions): CuttingBackend {
  const script = [...options.script];
  const fallback = options.fallback ??
    `HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`;
  let chats = 0;
  const encoder = new TextEncoder();
  const server = serveRawTcp(async (conn, request) => {
    if (request === null) return;
    let answer: RawAnswer;
    if (request.method === "GET" && request.path.startsWith("/v1/models")) {
      answer = jsonAnswer(JSON.stringify({ object: "list", data: [{ id: CUTTING_MODEL }] }));
    } else if (request.method === "GET" && request.path.startsWith("/api/tags")) {
      answer = jsonAnswer(JSON.stringify({ models: [{ name: CUTTING_MODEL }] }));
    } else {
      chats++;
      answer = script.shift() ?? fallback;
    }
    await writeAll(conn, encoder.encode(answer));
  });
  return { ...server, chats: () => chats };
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}
