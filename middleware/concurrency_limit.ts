/**
 * A ceiling on requests in flight, with a short bounded wait queue in front of it (as
 * llama-server queues requests for its slots). A streamed response stays in flight until its
 * body ends or the client goes away, so the slot is released then, not when the handler returns;
 * the slot goes straight to the longest-waiting request. A queued client that goes away leaves
 * the queue.
 */
import type { MiddlewareHandler } from "hono";

/** Options of {@link concurrencyLimit}. */
export interface ConcurrencyLimitOptions {
  /** Requests allowed in flight at once (≥ 1). */
  max: number;
  /** Requests that may wait for a slot, first come first served (≥ 0; default 0). */
  queue?: number;
  /** Builds the error thrown when every slot is taken and the queue is full. */
  reject: () => Error;
}

/**
 * Lets `max` requests run at once and up to `queue` more wait for a slot; refuses the rest.
 *
 * @throws {RangeError} at construction when `max` is not a positive integer or `queue` not a
 *   non-negative one.
 * @example
 * ```ts
 * app.use("/v1/chat/completions", concurrencyLimit({ max: 4, queue: 8, reject: () => busy() }));
 * ```
 */
export function concurrencyLimit(options: ConcurrencyLimitOptions): MiddlewareHandler {
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw new RangeError(`Cannot allow ${options.max} concurrent requests`);
  }
  const queue = options.queue ?? 0;
  if (!Number.isInteger(queue) || queue < 0) {
    throw new RangeError(`Cannot queue ${queue} requests`);
  }
  const { max, reject } = options;
  let inFlight = 0;
  /** Waiting requests, oldest first: each is handed a slot by `release`. */
  const waiting: Array<() => void> = [];

  /** Resolves once the request holds a slot; false when its client went away first. */
  function acquire(signal: AbortSignal): Promise<boolean> | boolean {
    if (inFlight < max) {
      inFlight++;
      return true;
    }
    if (waiting.length >= queue || signal.aborted) throw reject();
    return new Promise<boolean>((resolve) => {
      const handOver = () => {
        signal.removeEventListener("abort", leave);
        resolve(true); // the releasing request's slot passes on: inFlight stays
      };
      const leave = () => {
        waiting.splice(waiting.indexOf(handOver), 1);
        resolve(false);
      };
      waiting.push(handOver);
      signal.addEventListener("abort", leave, { once: true });
    });
  }

  return async function concurrencyLimitMiddleware(c, next) {
    // 499 (client closed request): nobody reads it, the access log does.
    if (!await acquire(c.req.raw.signal)) return new Response(null, { status: 499 });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else inFlight--;
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
