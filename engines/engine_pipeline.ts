/**
 * The local-first pipeline: picks the engine for a job and falls back along the configured order.
 */
import type { EngineId } from "../schemas/languages.ts";
import {
  type Engine,
  EngineFailedError,
  type EngineStatus,
  EngineUnavailableError,
  NoEngineReadyError,
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
  /**
   * How old the last finished round may be to answer while the next one probes (default 10 ×
   * `statusTtlMs`: 2.5 s; 0 waits for every round). On a busy event loop a round takes several
   * I/O polls (the built-in engine lists its model folders every 2 s, chat engines ask their
   * servers), and `/v1/health` waited for it: under 200 WebSocket clients most of its slowest
   * answers came every 2 s (BENCHMARKS.md, WebSocket load).
   */
  statusStaleMs?: number;
}

/** One round of status probes. */
interface StatusRound {
  readonly at: number;
  readonly reports: Promise<EngineReport[]>;
  settled: boolean;
}

/** Routes translation jobs to engines, each behind its own queue. */
export class EnginePipeline {
  readonly #engines: Engine[];
  readonly #queues = new Map<EngineId, EngineQueue>();
  readonly #statusTtlMs: number;
  readonly #statusStaleMs: number;
  #round?: StatusRound;
  /** The newest round that finished, which answers while a later one probes. */
  #settled?: { at: number; reports: EngineReport[] };
  /** Changes with every {@link reconfigure}, so a round of replaced engines is not kept. */
  #generation = 0;
  /** Jobs running on each engine, so a replaced one is closed only once it is idle. */
  readonly #running = new Map<Engine, number>();
  readonly #retired = new Set<Engine>();

  /** @throws {RangeError} when two engines share an id or `engines` is empty. */
  constructor(engines: readonly Engine[], options: EnginePipelineOptions) {
    if (engines.length === 0) throw new RangeError("EnginePipeline needs at least one engine");
    this.#engines = sortByOrder([...engines], options.order);
    this.#statusTtlMs = options.statusTtlMs ?? 250;
    this.#statusStaleMs = options.statusStaleMs ?? 10 * this.#statusTtlMs;
    for (const engine of this.#engines) {
      if (this.#queues.has(engine.id)) throw new RangeError(`engine ${engine.id} registered twice`);
      this.#queues.set(engine.id, new EngineQueue(engine.id, options.queues?.[engine.id]));
    }
  }

  /**
   * Every engine in pipeline order with its status (probed concurrently, then reused briefly).
   * While a new round probes, the last finished one answers if it is younger than
   * `statusStaleMs`.
   */
  reports(): Promise<EngineReport[]> {
    const now = Date.now();
    if (!this.#round || now - this.#round.at >= this.#statusTtlMs) this.#round = this.#probe(now);
    if (this.#round.settled) return this.#round.reports;
    const last = this.#settled;
    if (last && now - last.at < this.#statusStaleMs) return Promise.resolve(last.reports);
    return this.#round.reports;
  }

  #probe(at: number): StatusRound {
    const generation = this.#generation;
    const round: StatusRound = {
      at,
      settled: false,
      reports: Promise.all(this.#engines.map(async (engine) => ({
        engine,
        status: await engine.status().catch(() => ({ ready: false, models: null })),
      }))),
    };
    round.reports.then((reports) => {
      round.settled = true;
      // Only a round of the current engines, and never an older one over a newer one.
      if (generation !== this.#generation) return;
      if (!this.#settled || this.#settled.at <= at) this.#settled = { at, reports };
    });
    return round;
  }

  /**
   * The engine `auto` would try first now (the first ready one in order), or undefined when none
   * is ready: what a client is told about features only some engines have (DeepL's formality).
   */
  async firstReady(): Promise<EngineId | undefined> {
    return (await this.reports()).find(({ status }) => status.ready)?.engine.id;
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
    throw new NoEngineReadyError(this.#engines[0].id, hints);
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
    // Changed settings are seen at once: no round of the old engines answers again.
    this.#generation++;
    this.#round = undefined;
    this.#settled = undefined;
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
    const outcome = await queue.run(
      async (slot) => {
        this.#running.set(engine, (this.#running.get(engine) ?? 0) + 1);
        try {
          return await engine.translate({ ...job, away: slot.away });
        } finally {
          const left = this.#running.get(engine)! - 1;
          this.#running.set(engine, left);
          if (left === 0 && this.#retired.has(engine)) this.#closeRetired(engine);
        }
      },
      job.owner,
      { signal: job.signal },
    );
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
