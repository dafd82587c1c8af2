/**
 * A raw HTTP/1.1 exchange over TCP, for what `fetch` will not send: a foreign `Host` header or
 * WebSocket upgrade headers.
 */

/** A parsed raw response. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** Sends `GET path` with exactly these headers (plus Connection: close) and reads the answer. */
export async function rawGet(
  url: string,
  path: string,
  headers: Record<string, string>,
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  try {
    const lines = [
      `GET ${path} HTTP/1.1`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    await conn.write(
      new TextEncoder().encode(lines.join("\r\n") + "\r\nConnection: close\r\n\r\n"),
    );
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(64 * 1024);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
      if (headersComplete(chunks) && bodyComplete(chunks)) break;
    }
    return parse(new TextDecoder().decode(concat(chunks)));
  } finally {
    conn.close();
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function headersComplete(chunks: Uint8Array[]): boolean {
  return new TextDecoder().decode(concat(chunks)).includes("\r\n\r\n");
}

function bodyComplete(chunks: Uint8Array[]): boolean {
  const text = new TextDecoder().decode(concat(chunks));
  const [head, body] = text.split("\r\n\r\n", 2);
  const length = head.match(/content-length:\s*(\d+)/i);
  return length ? new TextEncoder().encode(body).length >= Number(length[1]) : false;
}

function parse(text: string): RawResponse {
  const [head, ...rest] = text.split("\r\n\r\n");
  const [statusLine, ...headerLines] = head.split("\r\n");
  const headers = new Headers();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") };
}
