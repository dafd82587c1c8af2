/**
 * The local-first pipeline: picks the engine for a job and falls back along the configured order.
 */
import type { EngineId } from "../schemas/languages.ts";
import {
  type Engine,
  EngineFailedError,
  type EngineStatus,
  EngineUnavailableError,
  type TranslationJob,
  type TranslationOutcome,
} from "./engine.ts";
import { EngineBusyError, EngineQueue, type EngineQueueOptions } from "./engine_queue.ts";

/** Which engine a request asked for. */
export type EngineChoice = "auto" | EngineId;

/** A job served: the engine that did it and its outcome. */
export interface ServedTranslation {
  engine: EngineId;
  outcome: TranslationOutcome;
}

/** An engine together with its current status, for capabilities and health. */
export interface EngineReport {
  engine: Engine;
  status: EngineStatus;
}

/** Options of {@link EnginePipeline}. */
export interface EnginePipelineOptions {
  /** The `auto` order (settings `engines.order`); engines not listed are tried last. */
  order: readonly EngineId[];
  /** Queue settings per engine id; missing ones take the queue defaults. */
  queues?: Partial<Record<EngineId, EngineQueueOptions>>;
  /**
   * How long one round of status probes answers health, capabilities and `auto` routing
   * (default 250 ms): a burst of requests probes each engine once, not once per request.
   */
  statusTtlMs?: number;
}

/** Routes translation jobs to engines, each behind its own queue. */
export class EnginePipeline {
  readonly #engines: Engine[];
  readonly #queues = new Map<EngineId, EngineQueue>();
  readonly #statusTtlMs: number;
  #reports?: { at: number; reports: Promise<EngineReport[]> };
  /** Jobs running on each engine, so a replaced one is closed only once it is idle. */
  readonly #running = new Map<Engine, number>();
  readonly #retired = new Set<Engine>();

  /** @throws {RangeError} when two engines share an id or `engines` is empty. */
  constructor(engines: readonly Engine[], options: EnginePipelineOptions) {
    if (engines.length === 0) throw new RangeError("EnginePipeline needs at least one engine");
    this.#engines = sortByOrder([...engines], options.order);
    this.#statusTtlMs = options.statusTtlMs ?? 250;
    for (const engine of this.#engines) {
      if (this.#queues.has(engine.id)) throw new RangeError(`engine ${engine.id} registered twice`);
      this.#queues.set(engine.id, new EngineQueue(engine.id, options.queues?.[engine.id]));
    }
  }

  /** Every engine in pipeline order with its status (probed concurrently, then reused briefly). */
  reports(): Promise<EngineReport[]> {
    const now = Date.now();
    if (this.#reports && now - this.#reports.at < this.#statusTtlMs) return this.#reports.reports;
    const reports = Promise.all(this.#engines.map(async (engine) => ({
      engine,
      status: await engine.status().catch(() => ({ ready: false, models: null })),
    })));
    this.#reports = { at: now, reports };
    return reports;
  }

  /**
   * Translates with the chosen engine, or with the first ready engine that succeeds for `auto`.
   *
   * @throws {EngineUnavailableError} when the named engine (or, for auto, every engine) cannot
   *   take the job.
   * @throws {EngineBusyError} when every engine that could take it has a full queue.
   * @throws {EngineFailedError} when the named engine failed, or every engine tried failed.
   */
  async translate(job: TranslationJob, choice: EngineChoice): Promise<ServedTranslation> {
    if (choice !== "auto") return await this.#run(this.#engine(choice), job);

    let lastError: unknown;
    const reports = await this.reports();
    for (const { engine, status } of reports) {
      if (!status.ready) continue;
      try {
        return await this.#run(engine, job);
      } catch (error) {
        if (job.signal?.aborted) throw error;
        if (!isFallbackError(error)) throw error;
        lastError = error;
      }
    }
    if (lastError) throw lastError;
    const hints = reports.flatMap(({ engine, status }) =>
      status.hint ? [`${engine.id}: ${status.hint}`] : []
    );
    throw new EngineUnavailableError(
      this.#engines[0].id,
      ["no translation engine is ready (see GET /v1/capabilities)", ...hints].join("; "),
    );
  }

  /**
   * Puts `replacements` in place of the engines with their ids and applies a new `auto` order,
   * so changed settings reach the running service at once. A replaced engine finishes the jobs
   * it runs and is closed after the last one; queues (and the jobs waiting in them) stay.
   *
   * @throws {RangeError} when a replacement's id is not registered.
   */
  reconfigure(replacements: readonly Engine[], order: readonly EngineId[]): void {
    for (const engine of replacements) {
      const index = this.#engines.findIndex((candidate) => candidate.id === engine.id);
      if (index === -1) throw new RangeError(`engine ${engine.id} is not registered`);
      const replaced = this.#engines[index];
      this.#engines[index] = engine;
      this.#retired.add(replaced);
      if (!this.#running.get(replaced)) this.#closeRetired(replaced);
    }
    sortByOrder(this.#engines, order);
    this.#reports = undefined;
  }

  /** Frees every engine. */
  async close(): Promise<void> {
    await Promise.allSettled(this.#engines.map((engine) => engine.close?.()));
  }

  #engine(id: EngineId): Engine {
    const engine = this.#engines.find((candidate) => candidate.id === id);
    if (!engine) throw new EngineUnavailableError(id, "this engine is not registered");
    return engine;
  }

  async #run(engine: Engine, job: TranslationJob): Promise<ServedTranslation> {
    const queue = this.#queues.get(engine.id)!;
    const outcome = await queue.run(async () => {
      this.#running.set(engine, (this.#running.get(engine) ?? 0) + 1);
      try {
        return await engine.translate(job);
      } finally {
        const left = this.#running.get(engine)! - 1;
        this.#running.set(engine, left);
        if (left === 0 && this.#retired.has(engine)) this.#closeRetired(engine);
      }
    }, job.owner);
    return { engine: engine.id, outcome };
  }

  #closeRetired(engine: Engine): void {
    this.#retired.delete(engine);
    this.#running.delete(engine);
    engine.close?.().catch(() => {});
  }
}

/** Sorts `engines` in place: listed ids in `order`, the others after them. */
function sortByOrder(engines: Engine[], order: readonly EngineId[]): Engine[] {
  const rank = (engine: Engine) => {
    const index = order.indexOf(engine.id);
    return index === -1 ? order.length : index;
  };
  return engines.sort((a, b) => rank(a) - rank(b));
}

function isFallbackError(error: unknown): boolean {
  return error instanceof EngineUnavailableError || error instanceof EngineFailedError ||
    error instanceof EngineBusyError;
}
