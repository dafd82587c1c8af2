/**
 * A ceiling on requests in flight. A streamed response stays in flight until its body ends or
 * the client goes away, so the slot is released then, not when the handler returns.
 */
import type { MiddlewareHandler } from "hono";

/** Options of {@link concurrencyLimit}. */
export interface ConcurrencyLimitOptions {
  /** Requests allowed in flight at once (≥ 1). */
  max: number;
  /** Builds the error thrown beyond the ceiling. */
  reject: () => Error;
}

/**
 * Refuses a request when `max` are already in flight.
 *
 * @throws {RangeError} at construction when `max` is not a positive integer.
 * @example
 * ```ts
 * app.use("/v1/chat/completions", concurrencyLimit({ max: 4, reject: () => busy() }));
 * ```
 */
export function concurrencyLimit(options: ConcurrencyLimitOptions): MiddlewareHandler {
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw new RangeError(`Cannot allow ${options.max} concurrent requests`);
  }
  const { max, reject } = options;
  let inFlight = 0;

  return async function concurrencyLimitMiddleware(c, next) {
    if (inFlight >= max) throw reject();
    inFlight++;
    let released = false;
    const release = () => {
      if (!released) inFlight--;
      released = true;
    };
    try {
      await next();
    } catch (error) {
      release();
      throw error;
    }
    const body = c.res.body;
    if (!body || c.error) return release();
    c.res = new Response(releasingStream(body, release), c.res);
  };
}

/** Passes `body` through and calls `release` once it ends, fails or is cancelled. */
function releasingStream(
  body: ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
