/**
 * A backend's model list, probed with a short timeout and cached for a few seconds, so that
 * capabilities can ask on every request without slowing down or hammering the backend.
 */

import { BackendBusyError } from "./backend_refusals.ts";
import { EngineFailedError, EngineUnavailableError } from "../engine.ts";

/** A model a backend lists. */
export interface ListedModel {
  id: string;
  /** Why the backend cannot serve it now (a status it reports); undefined when it can. */
  unavailable?: string;
}

/** The result of the last probe. */
export type ProbeResult =
  | { reachable: true; models: ListedModel[] }
  | {
    reachable: false;
    reason: string;
    /** The server said it is busy (a rate limit on its model list): retry in its time. */
    busy?: BackendBusyError;
    /** The system's words behind a short `reason`, for the log ({@link EngineUnavailableError}). */
    detail?: string;
  };

/** Options of {@link createStatusCache}. */
export interface StatusCacheOptions {
  /** How long a result is reused, in ms (0: probe every time). */
  ttlMs: number;
}

/** A cached probe. */
export interface StatusCache {
  /** The cached result, or a fresh probe when it expired; concurrent callers share one probe. */
  get(): Promise<ProbeResult>;
  /** Forgets the cached result (after a request found the backend gone). */
  invalidate(): void;
}

/**
 * Wraps `probe` (which lists models and applies its own timeout) in a short-lived cache.
 *
 * @example
 * ```ts
 * const status = createStatusCache(() => listModels(), { ttlMs: 3000 });
 * const result = await status.get();
 * ```
 */
export function createStatusCache(
  probe: () => Promise<ListedModel[]>,
  options: StatusCacheOptions,
): StatusCache {
  let cached: { result: ProbeResult; at: number } | undefined;
  let inFlight: Promise<ProbeResult> | undefined;
  let generation = 0;

  async function run(): Promise<ProbeResult> {
    const started = generation;
    let result: ProbeResult;
    try {
      result = { reachable: true, models: await probe() };
    } catch (error) {
      result = {
        reachable: false,
        reason: reasonOf(error),
        ...(error instanceof BackendBusyError ? { busy: error } : {}),
        ...(error instanceof EngineUnavailableError ? { detail: error.detail } : {}),
      };
    }
    if (started === generation) cached = { result, at: Date.now() };
    return result;
  }

  return {
    get() {
      if (cached && Date.now() - cached.at < options.ttlMs) return Promise.resolve(cached.result);
      inFlight ??= run().finally(() => inFlight = undefined);
      return inFlight;
    },
    invalidate() {
      generation++;
      cached = undefined;
    },
  };
}

/** Why a probe failed, without the engine's name: the engine's own error adds it once. */
function reasonOf(error: unknown): string {
  if (
    error instanceof EngineUnavailableError || error instanceof EngineFailedError ||
    error instanceof BackendBusyError
  ) {
    return error.reason;
  }
  return error instanceof Error ? error.message : String(error);
}
