/**
 * Reads a request's whole body within a deadline, before anything scarce (a generation slot) is
 * taken: a client trickling its body holds only its own connection, and one whose body has not
 * arrived by the deadline is dropped. The body is then served from memory to the handler.
 */
import type { MiddlewareHandler } from "hono";

/** Options of {@link bodyDeadline}. */
export interface BodyDeadlineOptions {
  /** Milliseconds the whole body may take to arrive (≥ 1). */
  timeoutMs: number;
  /** Builds the error thrown when the deadline passes. */
  reject: () => Error;
}

/**
 * Buffers the body of every request that has one, within `timeoutMs`.
 *
 * Install it after the body-size limit (which wraps the stream it reads) and before the
 * concurrency limit.
 *
 * @throws {RangeError} at construction when `timeoutMs` is not a positive number.
 * @example
 * ```ts
 * app.use("/v1/chat/completions", bodyDeadline({ timeoutMs: 30_000, reject: () => timeout() }));
 * ```
 */
export function bodyDeadline(options: BodyDeadlineOptions): MiddlewareHandler {
  if (!(options.timeoutMs > 0)) {
    throw new RangeError(`Cannot wait ${options.timeoutMs} ms for a request body`);
  }
  const { timeoutMs, reject } = options;

  return async function bodyDeadlineMiddleware(c, next) {
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, fail) => {
      timer = setTimeout(() => {
        reader.cancel().catch(() => {});
        fail(reject());
      }, timeoutMs);
    });
    try {
      const bytes = await Promise.race([readAll(reader), expired]);
      c.req.raw = new Request(c.req.raw, { body: bytes });
    } finally {
      clearTimeout(timer);
    }
    await next();
  };
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
