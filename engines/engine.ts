/**
 * The one small interface every translation backend implements.
 *
 * Engines never import Hono or routes; the pipeline and the routes map their errors to the
 * service's error factory.
 */
import type { EngineId, LanguageCode } from "../schemas/languages.ts";

/**
 * One non-empty text to translate, with the canonical code of the language it is written in
 * (`translation/plan.ts`; may lie outside the 16).
 */
export interface TranslationItem {
  text: string;
  source: string;
  /**
   * Glossary terms found in this text (only those): the translation must use `target`, or keep
   * `source` as written when `target` is empty ("do not translate").
   */
  terms?: readonly GlossaryTerm[];
  /**
   * The placeholder tokens of `text` that stand for escaped characters (`<x2/>` for Markdown's
   * `\_`), with them: the glossary reads `max<x2/>connections` as one word.
   */
  escapedCharacters?: Readonly<Record<string, string>>;
  /**
   * How many segments of the request this text stands for (`webpage` mode sends identical ones
   * once); 1 when unset. Only the glossary report reads it: it counts every segment's terms.
   */
  occurrences?: number;
  /** Earlier translations of similar texts (translation memory), for engines that take examples. */
  examples?: readonly { source: string; target: string }[];
  /**
   * The text of the request this one is a piece of, when that text stands alone (a whole
   * subtitle file): pieces of different groups are never read as one text, so an engine that
   * reads neighbours as context reads only its group's. Undefined: no group of its own.
   */
  group?: number;
}

/** One glossary term an engine is given. */
export interface GlossaryTerm {
  source: string;
  /** Empty: do not translate, keep `source`. */
  target: string;
}

/** What an engine is asked to do: translate every item into `target`. */
export interface TranslationJob {
  items: TranslationItem[];
  target: LanguageCode;
  /** `options.model`; undefined means the engine's configured default. */
  model?: string;
  /** Request `mode` (selection, paragraph, webpage, subtitle, message, document). */
  mode: string;
  tone?: string;
  domain?: string;
  /** Text around the items, read to understand them, never translated (`options.context`). */
  context?: string;
  /** The caller's instructions on how to translate (`options.instructions`). */
  instructions?: readonly string[];
  /** Ask for up to 3 distinct alternatives per item. */
  alternatives: boolean;
  /** Aborted when the client is gone or the service shuts down. */
  signal?: AbortSignal;
  /**
   * Who the job is queued for (a WebSocket connection): jobs of different owners take turns in
   * the engine's queue. Undefined: the job is its own owner.
   */
  owner?: unknown;
  /**
   * Runs `wait` (a pause before asking a busy backend again) without holding the engine's queue
   * slot; the pipeline sets it. Undefined: the wait simply runs.
   */
  away?: <T>(wait: () => Promise<T>) => Promise<T>;
}

/** One translated item, in the order of `TranslationJob.items`. */
export interface TranslatedItem {
  text: string;
  /** The engine's own sequence confidence in 0..1, or null when it has none. */
  confidence: number | null;
  /** Distinct candidates, empty when none were asked for; the caller keeps at most 3. */
  alternatives: string[];
}

/** The engine's answer to a job. */
export interface TranslationOutcome {
  /** The model that served the job. */
  model: string;
  items: TranslatedItem[];
}

/** A model an engine really has. */
export interface EngineModel {
  id: string;
  name: string;
  ready: boolean;
}

/** Readiness: `ready` only when a translation would be attempted right now. */
export interface EngineStatus {
  ready: boolean;
  /** What the engine really has; null when it cannot list. */
  models: EngineModel[] | null;
  /** When not ready and the user can fix it: what to do, in one line (shown in 503 messages). */
  hint?: string;
}

/** A translation backend. */
export interface Engine {
  readonly id: EngineId;
  readonly name: string;
  /** Current readiness and models; cheap enough to call per capabilities request. */
  status(): Promise<EngineStatus>;
  /**
   * Translates a batch.
   *
   * @throws {EngineUnavailableError} when the backend cannot be reached or is not ready.
   * @throws {EngineFailedError} when the backend answered but the translation failed.
   */
  translate(job: TranslationJob): Promise<TranslationOutcome>;
  /** Frees models, sockets and timers. */
  close?(): Promise<void>;
}

/** The backend cannot take the job now (unreachable, not configured, no model); try another. */
export class EngineUnavailableError extends Error {
  override name = "EngineUnavailableError";
  /**
   * The system's own words behind a short `reason` (the OS error of a failed connection), for
   * the service log rather than the client.
   */
  readonly detail?: string;
  /** Why, without the engine's name (the message adds it once). */
  constructor(
    readonly engine: EngineId,
    readonly reason: string,
    options?: ErrorOptions & { detail?: string },
  ) {
    super(`${engine} is unavailable: ${reason}`, options);
    this.detail = options?.detail;
  }
}

/**
 * `auto` found no engine ready. Not one engine's failure: the message names each engine that
 * says why it is not ready (the first engine is kept as `engine` for the logs).
 */
export class NoEngineReadyError extends EngineUnavailableError {
  override name = "NoEngineReadyError";
  constructor(engine: EngineId, reasons: readonly string[]) {
    const reason = ["no translation engine is ready (see GET /v1/capabilities)", ...reasons]
      .join("; ");
    super(engine, reason);
    this.message = reason;
  }
}

/** The backend took the job and failed (bad output after retries, backend error). */
export class EngineFailedError extends Error {
  override name = "EngineFailedError";
  /** Why, without the engine's name (the message adds it once). */
  constructor(readonly engine: EngineId, readonly reason: string, options?: ErrorOptions) {
    super(`${engine} failed: ${reason}`, options);
  }
}
