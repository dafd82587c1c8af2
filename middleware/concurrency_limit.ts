/**
 * A ceiling on requests in flight, with a short bounded wait queue in front of it (as
 * llama-server queues requests for its slots). A streamed response stays in flight until its
 * body ends or the client goes away, so the slot is released then, not when the handler returns;
 * the slot goes straight to the longest-waiting request. A client that goes away leaves the queue,
 * or gives its slot up at once: the handlers behind this limit must stop on the request's signal
 * (a generation does, within a decode step), since the next request may start before they end.
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
  /**
   * Milliseconds a request that finds every slot and queue place taken waits for one to free
   * before it is refused (default 0: at once). A client that abandons a request and retries at
   * once sends its retry on a new connection, which the server may read before it sees the old
   * one close: without a grace, the retry is refused by the very request it abandoned.
   */
  graceMs?: number;
}

/** How many requests hold a slot and how many wait for one (llama-server's "processing" and
 * "deferred"). */
export interface ConcurrencyLoad {
  running: number;
  queued: number;
}

/** The middleware, and a reading of its load at this moment (for a status report). */
export type ConcurrencyLimitMiddleware = MiddlewareHandler & { load(): ConcurrencyLoad };

/**
 * Lets `max` requests run at once and up to `queue` more wait for a slot; refuses the rest.
 *
 * @throws {RangeError} at construction when `max` is not a positive integer, `queue` not a
 *   non-negative one, or `graceMs` negative.
 * @example
 * ```ts
 * app.use("/v1/chat/completions", concurrencyLimit({ max: 4, queue: 8, reject: () => busy() }));
 * ```
 */
export function concurrencyLimit(
  options: ConcurrencyLimitOptions,
): ConcurrencyLimitMiddleware {
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw new RangeError(`Cannot allow ${options.max} concurrent requests`);
  }
  const queue = options.queue ?? 0;
  if (!Number.isInteger(queue) || queue < 0) {
    throw new RangeError(`Cannot queue ${queue} requests`);
  }
  if (!(options.graceMs === undefined || options.graceMs >= 0)) {
    throw new RangeError(`Cannot wait ${options.graceMs} ms before refusing a request`);
  }
  const { max, reject } = options;
  const graceMs = options.graceMs ?? 0;
  let inFlight = 0;
  /** Waiting requests, oldest first: `release` hands the slot to the first, which leaves. */
  const waiting: Array<() => void> = [];
  /** How many of `waiting` are beyond the queue, in their grace time. */
  let inGrace = 0;

  /**
   * Resolves once the request holds a slot; false when its client went away first.
   *
   * @throws the `reject` error when neither a slot nor a place in the queue frees in time.
   */
  function acquire(signal: AbortSignal): Promise<boolean> | boolean {
    if (inFlight < max) {
      inFlight++;
      return true;
    }
    const queueFull = waiting.length - inGrace >= queue;
    if (signal.aborted || (queueFull && graceMs === 0)) throw reject();
    return new Promise<boolean>((resolve, fail) => {
      // Beyond the queue: a place of its own until the grace runs out, then the refusal.
      const grace = queueFull
        ? setTimeout(() => {
          leaveWaiting();
          fail(reject());
        }, graceMs)
        : undefined;
      if (grace !== undefined) inGrace++;
      const leaveWaiting = () => {
        waiting.splice(waiting.indexOf(handOver), 1);
        signal.removeEventListener("abort", leave);
        if (grace === undefined) return;
        clearTimeout(grace);
        inGrace--;
      };
      const handOver = () => {
        leaveWaiting();
        resolve(true); // the releasing request's slot passes on: inFlight stays
      };
      const leave = () => {
        leaveWaiting();
        resolve(false);
      };
      waiting.push(handOver);
      signal.addEventListener("abort", leave, { once: true });
    });
  }

  const middleware: MiddlewareHandler = async function concurrencyLimitMiddleware(c, next) {
    // 499 (client closed request): nobody reads it, the access log does.
    if (!await acquire(c.req.raw.signal)) return new Response(null, { status: 499 });
    const signal = c.req.raw.signal;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      signal.removeEventListener("abort", release);
      const oldest = waiting[0]; // takes itself off the list
      if (oldest) oldest();
      else inFlight--;
    };
    // A client that goes away gives its slot up at once, not when its handler has wound down:
    // its retry (on another connection) must not be refused by the request it abandoned.
    if (signal.aborted) {
      release();
      return new Response(null, { status: 499 });
    }
    signal.addEventListener("abort", release, { once: true });
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
  return Object.assign(middleware, {
    load: (): ConcurrencyLoad => ({ running: inFlight, queued: waiting.length }),
  });
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
