/**
 * Stand-ins on raw TCP, for what an HTTP server library will not do: answer with a body cut
 * short, close a connection unanswered, trickle bytes a few at a time.
 */

/** A request as it came over the socket. */
export interface RawRequest {
  /** The request line and headers, without the blank line that ends them. */
  head: string;
  method: string;
  path: string;
  body: string;
}

/**
 * Reads a whole request — its head and its Content-Length body, counted in bytes — so that
 * closing the connection afterwards sends no reset; null when the client closed first.
 */
export async function readRawRequest(conn: Deno.Conn): Promise<RawRequest | null> {
  const buffer = new Uint8Array(64 * 1024);
  let bytes = new Uint8Array(0);
  while (true) {
    const n = await conn.read(buffer);
    if (n === null) return null;
    const grown = new Uint8Array(bytes.length + n);
    grown.set(bytes);
    grown.set(buffer.subarray(0, n), bytes.length);
    bytes = grown;
    const end = indexOfBlankLine(bytes);
    if (end === -1) continue;
    const head = new TextDecoder().decode(bytes.subarray(0, end));
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (bytes.length - (end + 4) < length) continue;
    const [method = "", path = ""] = head.split(" ");
    return { head, method, path, body: new TextDecoder().decode(bytes.subarray(end + 4)) };
  }
}

function indexOfBlankLine(bytes: Uint8Array): number {
  for (let at = 0; at + 3 < bytes.length; at++) {
    if (bytes[at] === 13 && bytes[at + 1] === 10 && bytes[at + 2] === 13 && bytes[at + 3] === 10) {
      return at;
    }
  }
  return -1;
}

/** A raw stand-in on loopback. */
export interface RawServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Serves connections on a free loopback port one after another: `handle` answers one whole
 * request (null when its client closed first), and the connection is closed after it.
 */
export function serveRawTcp(
  handle: (conn: Deno.Conn, request: RawRequest | null) => Promise<void>,
): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of listener) {
      try {
        await handle(conn, await readRawRequest(conn));
      } catch {
        // the client went away first: nothing to answer
      } finally {
        try {
          conn.close();
        } catch { /* closed by the client */ }
      }
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      listener.close();
      await serving.catch(() => {});
    },
  };
}
