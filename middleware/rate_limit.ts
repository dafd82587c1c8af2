/**
 * Per-client request rate limit: a token bucket per client key holding up to one minute's
 * allowance, refilled continuously, so bursts up to the limit pass and the steady rate is
 * `requestsPerMinute`.
 */
import type { Context, MiddlewareHandler } from "hono";

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Requests allowed per minute per client (≥ 1). */
  requestsPerMinute: number;
  /** The bucket a request counts against (an API key digest, else the client address). */
  keyOf: (c: Context) => string;
  /** Builds the error thrown when the bucket is empty; `retryAfter` is in whole seconds. */
  reject: (retryAfter: number) => Error;
  /** Clock in milliseconds (tests pass a fake one). Default `Date.now`. */
  now?: () => number;
  /** Buckets kept before idle ones are dropped. Default 10000. */
  maxClients?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Answers over-limit requests with the `reject` error.
 *
 * @throws {RangeError} at construction when `requestsPerMinute` is not a positive integer.
 * @example
 * ```ts
 * app.use("/v1/*", rateLimit({ requestsPerMinute: 60, keyOf, reject: (s) => tooMany(s) }));
 * ```
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const { requestsPerMinute: capacity, keyOf, reject } = options;
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new RangeError(`Cannot limit to ${capacity} requests per minute`);
  }
  const now = options.now ?? Date.now;
  const maxClients = options.maxClients ?? 10_000;
  const perMs = capacity / 60_000;
  const buckets = new Map<string, Bucket>();

  function refill(bucket: Bucket, at: number): void {
    bucket.tokens = Math.min(capacity, bucket.tokens + (at - bucket.at) * perMs);
    bucket.at = at;
  }

  function prune(at: number): void {
    for (const [key, bucket] of buckets) {
      refill(bucket, at);
      if (bucket.tokens >= capacity) buckets.delete(key);
    }
  }

  return async function rateLimitMiddleware(c, next) {
    const at = now();
    const key = keyOf(c);
    let bucket = buckets.get(key);
    if (!bucket) {
      if (buckets.size >= maxClients) prune(at);
      bucket = { tokens: capacity, at };
      buckets.set(key, bucket);
    }
    refill(bucket, at);
    if (bucket.tokens < 1) {
      throw reject(Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)));
    }
    bucket.tokens -= 1;
    await next();
  };
}
