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
  const conn = await sendGet(url, path, { ...headers, Connection: "close" });
  try {
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

/** Connects and writes `GET path` with exactly these headers, byte for byte. */
async function sendGet(url: string, path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const lines = [`GET ${path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  await writeAll(conn, new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
  return conn;
}

/**
 * Writes every byte: `write` may take part of a buffer (a peer that is not reading fills the
 * socket's buffers), and the rest would be lost from the middle of a frame.
 */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
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

/** A WebSocket handshake sent byte for byte, and the connection when it was upgraded. */
export interface RawUpgrade {
  status: number;
  headers: Headers;
  /** Sends one masked text frame (client frames must be masked, RFC 6455 §5.3). */
  send(text: string): Promise<void>;
  /** Sends one masked frame of any opcode with these exact bytes (e.g. a text frame not UTF-8). */
  sendFrame(opcode: number, payload: Uint8Array): Promise<void>;
  /** Reads one unfragmented text frame from the server. */
  receive(): Promise<string>;
  /**
   * Sends a masked ping. The server reads its frames in order and answers a ping only when it
   * reads it, after handing every earlier frame to the service: the pong says they were read.
   */
  ping(): Promise<void>;
  /** Reads one unfragmented frame of any kind (opcode 0x1 text, 0x8 close, 0xA pong…). */
  receiveFrame(): Promise<{ opcode: number; payload: Uint8Array }>;
  close(): void;
}

/** Sends an upgrade request with exactly these headers and reads the answer's head. */
export async function rawUpgrade(
  url: string,
  path: string,
  headers: Record<string, string>,
): Promise<RawUpgrade> {
  const conn = await sendGet(url, path, headers);
  let buffered: Uint8Array = new Uint8Array(0);
  async function fill(atLeast: number) {
    const chunk = new Uint8Array(64 * 1024);
    while (buffered.length < atLeast) {
      const n = await conn.read(chunk);
      if (n === null) throw new Error("connection closed");
      buffered = concat([buffered, chunk.slice(0, n)]);
    }
  }
  function take(n: number): Uint8Array {
    const out = buffered.slice(0, n);
    buffered = buffered.slice(n);
    return out;
  }
  let headEnd = -1;
  while (headEnd === -1) {
    await fill(buffered.length + 1);
    headEnd = new TextDecoder().decode(buffered).indexOf("\r\n\r\n");
  }
  const head = parse(new TextDecoder().decode(take(headEnd + 4)));
  return {
    status: head.status,
    headers: head.headers,
    send: (text) => sendFrame(0x1, new TextEncoder().encode(text)),
    sendFrame,
    ping: () => sendFrame(0x9, new Uint8Array(0)),
    async receive() {
      return new TextDecoder().decode((await receiveFrame()).payload);
    },
    receiveFrame,
    close: () => conn.close(),
  };

  async function sendFrame(opcode: number, payload: Uint8Array) {
    const mask = crypto.getRandomValues(new Uint8Array(4));
    const length = payload.length < 126
      ? [0x80 | payload.length]
      : [0x80 | 126, payload.length >> 8, payload.length & 0xff];
    const masked = payload.map((byte, index) => byte ^ mask[index % 4]);
    await writeAll(conn, concat([new Uint8Array([0x80 | opcode, ...length]), mask, masked]));
  }

  async function receiveFrame() {
    await fill(2);
    const [first, second] = take(2);
    let length = second & 0x7f;
    if (length === 126) {
      await fill(2);
      const [high, low] = take(2);
      length = (high << 8) | low;
    } else if (length === 127) {
      await fill(8);
      length = Number(new DataView(take(8).buffer).getBigUint64(0));
    }
    await fill(length);
    return { opcode: first & 0x0f, payload: take(length) };
  }
}

/**
 * The key and version headers of a valid handshake (RFC 6455 §1.3's sample key), for raw
 * upgrade requests.
 */
export const WEBSOCKET_KEY = {
  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
  "Sec-WebSocket-Version": "13",
};
