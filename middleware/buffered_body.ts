/**
 * Reads a request's whole body into memory before anything scarce (a generation slot) is taken,
 * within a size limit and a deadline, in one read: a body declaring more than the limit is refused
 * before it is read, one that turns out bigger (chunked, no length) as soon as it passes the limit,
 * and a client trickling its body holds only its own connection until the deadline drops it. The
 * body is then served from memory to the handler.
 *
 * One read for both rules because a size limit that reads a chunked body itself (Hono's
 * `bodyLimit` does) would read a trickle with no deadline at all.
 */
import type { MiddlewareHandler } from "hono";

/** Options of {@link bufferedBody}. */
export interface BufferedBodyOptions {
  /** Bytes a body may have. */
  maxSize: number;
  /** Builds the error thrown for a body over `maxSize`. */
  tooLarge: () => Error;
  /** Milliseconds the whole body may take to arrive (≥ 1). */
  timeoutMs: number;
  /** Builds the error thrown when the deadline passes. */
  timeout: () => Error;
}

/**
 * Buffers the body of every request that has one, within `maxSize` bytes and `timeoutMs`.
 *
 * Install it before the concurrency limit.
 *
 * @throws {RangeError} at construction when `timeoutMs` is not a positive number.
 * @example
 * ```ts
 * app.use("/v1/*", bufferedBody({ maxSize: 1 << 20, tooLarge, timeoutMs: 30_000, timeout }));
 * ```
 */
export function bufferedBody(options: BufferedBodyOptions): MiddlewareHandler {
  if (!(options.timeoutMs > 0)) {
    throw new RangeError(`Cannot wait ${options.timeoutMs} ms for a request body`);
  }
  const { maxSize, tooLarge, timeoutMs, timeout } = options;

  return async function bufferedBodyMiddleware(c, next) {
    const body = c.req.raw.body;
    if (!body) return next();
    if (Number(c.req.header("content-length") ?? 0) > maxSize) {
      await body.cancel().catch(() => {});
      throw tooLarge();
    }
    const reader = body.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(timeout()), timeoutMs);
    });
    try {
      const bytes = await Promise.race([readAll(reader, maxSize, tooLarge), expired]);
      c.req.raw = new Request(c.req.raw, { body: bytes });
    } catch (error) {
      reader.cancel().catch(() => {});
      throw error;
    } finally {
      clearTimeout(timer);
    }
    await next();
  };
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxSize: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > maxSize) throw tooLarge();
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
