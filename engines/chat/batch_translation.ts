/**
 * Runs a translation job through an LLM backend with the shared protocol: items are grouped by
 * source language, packed into batches that fit the model's context, and only the items whose
 * answer was missing or broken are asked again (a bounded number of times). A batch the backend
 * finds too long for its context, or whose answer was cut off, is split in halves.
 */
import type { EngineId } from "../../schemas/languages.ts";
import { EngineFailedError, type TranslatedItem, type TranslationJob } from "../engine.ts";
import { placeholderProblem, readableText, unescapedTokens } from "../placeholder_tokens.ts";
import { subtitleAnswerProblem } from "../subtitle_answers.ts";
import {
  answerSchema,
  buildMessages,
  maxTranslationLength,
  parseAnswer,
  type ParsedTranslation,
  type ProtocolItem,
  type ProtocolMessages,
} from "./translation_protocol.ts";
import { answerRoom } from "./context_refusal.ts";
import { unescapedTwice } from "./double_escapes.ts";
import { type JobChances, pause, secondChance } from "./second_chances.ts";
import prompts from "./prompts.json" with { type: "json" };

/** One chat request of the protocol, as a backend sends it. */
export interface CompletionRequest {
  model: string;
  messages: ProtocolMessages;
  /** JSON Schema the answer must match (structured output). */
  schema: Record<string, unknown>;
  maxTokens: number;
  temperature: number;
  signal?: AbortSignal;
}

/** A backend's answer to one request. */
export interface Completion {
  content: string;
  /** True when generation stopped at the token limit (the JSON may be cut). */
  truncated: boolean;
  /**
   * Why `content` is no answer however well it parses (a stream that ended before its end):
   * every item it was for is asked again, and this is their problem if none is answered.
   */
  unreadable?: string;
}

/** Sends one request; throws {@link ContextOverflowError} when the prompt does not fit. */
export type CompleteFn = (request: CompletionRequest) => Promise<Completion>;

/**
 * The backend refused a request as too long: for the model's context, or for the body size it
 * (or a proxy in front of it) takes.
 */
export class ContextOverflowError extends Error {
  override name = "ContextOverflowError";
}

/** How a job is cut and sent. */
export interface BatchOptions {
  engine: EngineId;
  model: string;
  /** The model's context in tokens (what batches are packed against). */
  contextTokens: number;
  /** Upper bound on items per request. */
  maxBatchItems: number;
  temperature: number;
  /** Requests per batch, first one included (default 3). */
  maxAttempts?: number;
}

interface JobItem extends ProtocolItem {
  index: number;
  source: string;
  group?: number;
  /** The texts just before this one, in its group, that a request starting here reads first. */
  preceding: readonly string[];
  terms?: TranslationJob["items"][number]["terms"];
  examples?: TranslationJob["items"][number]["examples"];
}

/** One job under way: what every batch of it is sent with, and what it has spent. */
interface JobRun {
  job: TranslationJob;
  complete: CompleteFn;
  options: BatchOptions;
  results: TranslatedItem[];
  chances: JobChances;
}

const DEFAULT_ATTEMPTS = 3;
/** Modes whose items are parts of one text, sent together as far as the context allows. */
const WHOLE_REQUEST_MODES = new Set(["document", "subtitle"]);
/**
 * Earlier cues a later request of one subtitle file reads before its first (a sentence running
 * over from the request before, who is speaking).
 */
const PRECEDING_CUES = 3;
/** JSON punctuation and id per item in the answer, in tokens. */
const ITEM_OVERHEAD_TOKENS = 12;
/** Room kept free in the context besides the estimates (chat template, rounding). */
const CONTEXT_MARGIN_TOKENS = 64;

/**
 * Translates every item of `job`, in order; confidences are null (LLMs give none).
 *
 * @throws {EngineFailedError} when items still have no usable translation after the retries,
 *   or one text alone is too long for the model's context.
 * @throws whatever `complete` throws besides {@link ContextOverflowError} (unreachable backend,
 *   HTTP errors, aborts) once its second chance is spent (see second_chances.ts): a dropped
 *   connection twice for a batch, a busy server twice for a batch after the first, a timeout
 *   twice in the job.
 */
export async function translateBatches(
  job: TranslationJob,
  complete: CompleteFn,
  options: BatchOptions,
): Promise<TranslatedItem[]> {
  const results: TranslatedItem[] = new Array(job.items.length);
  const items: JobItem[] = job.items.map((item, index) => ({
    index,
    id: String(index + 1),
    text: item.text,
    source: item.source,
    group: item.group,
    preceding: job.mode === "subtitle" ? precedingTexts(job.items, index) : [],
    terms: item.terms,
    examples: item.examples,
  }));
  const run = { job, complete, options, results, chances: { answered: false, timedOut: false } };
  for (const batch of planBatches(job, items, options)) await runBatch(run, batch);
  return results;
}

/**
 * The texts of up to {@link PRECEDING_CUES} items just before `items[index]`, of its group and
 * source language (a request is of one source), as readable text: their placeholder tokens
 * would pair with none of the request's items.
 */
function precedingTexts(items: TranslationJob["items"], index: number): string[] {
  const { group, source } = items[index];
  const texts: string[] = [];
  for (let at = index - 1; at >= 0 && texts.length < PRECEDING_CUES; at--) {
    if (items[at].group !== group) break;
    if (items[at].source === source) texts.unshift(readableText(items[at].text));
  }
  return texts;
}

/**
 * Packs items into batches: one source language per batch (the prompt names it), at most
 * `maxBatchItems`, and an estimated prompt plus answer within the model's context. Pieces of
 * several groups (small subtitle files) share a batch, each marked with its file
 * ({@link withFiles}), rather than one request each.
 */
function planBatches(job: TranslationJob, items: JobItem[], options: BatchOptions): JobItem[][] {
  const bySource = Map.groupBy(items, (item) => item.source);
  const batches: JobItem[][] = [];
  for (const [source, group] of bySource) {
    // The prompt without items: the system prompt, and the payload with the request's context.
    const empty = buildMessages([], promptContext(job, source));
    const fixed = estimateTokens(empty.system) + estimateTokens(empty.user) +
      CONTEXT_MARGIN_TOKENS;
    const budget = Math.max(options.contextTokens - fixed, 1);
    // Documents and subtitle files are read whole (terms, sentences running over cues): only
    // the context bounds their batches.
    const maxItems = WHOLE_REQUEST_MODES.has(job.mode) ? Infinity : options.maxBatchItems;
    let current: JobItem[] = [];
    let used = 0;
    for (const item of group) {
      const cost = itemCost(item, job.alternatives);
      const full = used + cost > budget || current.length >= maxItems;
      if (current.length > 0 && full) {
        batches.push(current);
        current = [];
      }
      // A batch starting here reads the texts before it too.
      if (current.length === 0) used = precedingCost(item.preceding);
      current.push(item);
      used += cost;
    }
    if (current.length > 0) batches.push(current);
  }
  return batches;
}

async function runBatch(run: JobRun, batch: JobItem[]): Promise<void> {
  const { job, complete, options, results } = run;
  const attempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
  let pending = batch;
  let problems = new Map<string, string>();
  /** The answer's cap the server's own refusal left room for (one text too long for it). */
  let roomLeft: number | undefined;
  const chances = { job: run.chances, batch: { dropped: false, busy: false } };
  for (let attempt = 1; attempt <= attempts && pending.length > 0; attempt++) {
    job.signal?.throwIfAborted();
    let completion: Completion;
    const request = completionRequest(job, pending, options, roomLeft);
    try {
      completion = await complete(request);
    } catch (error) {
      // A dropped connection, a busy server, a timeout: asked again (within bounds), not
      // counted as an attempt, as the failure said nothing about the texts.
      const wait = secondChance(error, chances);
      if (wait !== undefined) {
        // A wait for the server, not work for it: other jobs of the engine go meanwhile.
        const waiting = () => pause(wait, job.signal);
        await (wait > 0 && job.away ? job.away(waiting) : waiting());
        attempt--;
        continue;
      }
      if (!(error instanceof ContextOverflowError)) throw error;
      // One text whose worst-case answer does not fit: ask again for what the server says
      // fits, when that is still room for a translation of it (once).
      const room = pending.length === 1 && roomLeft === undefined
        ? answerRoom(error.message)
        : undefined;
      if (room !== undefined && room - CONTEXT_MARGIN_TOKENS >= estimateTokens(pending[0].text)) {
        roomLeft = room - CONTEXT_MARGIN_TOKENS;
        attempt--;
        continue;
      }
      if (pending.length === 1) {
        throw new EngineFailedError(
          options.engine,
          `a text of ${[...pending[0].text].length} characters is too long for model ` +
            `${options.model} on its server (${error.message})`,
        );
      }
      return await runHalves(run, pending);
    }
    run.chances.answered = true;
    const { unreadable } = completion;
    const parsed = unreadable === undefined
      ? parseAnswer(completion.content, pending)
      : { translations: new Map(), problems: new Map(pending.map(({ id }) => [id, unreadable])) };
    for (const item of pending) {
      const parsedTranslation = parsed.translations.get(item.id);
      if (!parsedTranslation) continue;
      const translation = repaired(item.text, parsedTranslation);
      results[item.index] = { ...translation, confidence: null };
      // Placeholders dropped, doubled or moved: ask again; the last answer stays as the best
      // one so far, and the translation layer's fallback keeps the markup if it stays broken.
      // A subtitle cue's answer that would start or end a cue: ask again too.
      const broken = placeholderProblem(item.text, translation.text) ??
        (job.mode === "subtitle" ? subtitleAnswerProblem(item.text, translation.text) : undefined);
      if (broken) parsed.problems.set(item.id, broken);
    }
    problems = parsed.problems;
    // Said with the problem: asked again, a text cut again at the same cap fails the same way.
    if (completion.truncated) {
      for (const [id, problem] of problems) {
        problems.set(id, `${problem} (cut at the token limit, ${request.maxTokens} tokens)`);
      }
    }
    pending = pending.filter((item) => problems.has(item.id));
    // A cut-off answer will be cut off again at the same size: ask for less at once.
    if (completion.truncated && pending.length > 1) {
      return await runHalves(run, pending);
    }
  }
  pending = pending.filter((item) => results[item.index] === undefined);
  if (pending.length === 0) return;
  const reasons = pending.slice(0, 5).map((item) => `id ${item.id}: ${problems.get(item.id)}`);
  throw new EngineFailedError(
    options.engine,
    `model ${options.model} gave no usable translation for ${pending.length} of ` +
      `${batch.length} texts after ${attempts} attempts (${reasons.join("; ")})`,
  );
}

/**
 * A translation as the model meant it: JSON escapes it wrote twice read as the characters, and
 * placeholder tokens it wrote HTML-escaped read as the tokens.
 */
function repaired(source: string, translation: ParsedTranslation): ParsedTranslation {
  const repair = (text: string) => unescapedTokens(source, unescapedTwice(source, text));
  return { text: repair(translation.text), alternatives: translation.alternatives.map(repair) };
}

async function runHalves(run: JobRun, items: JobItem[]): Promise<void> {
  const middle = Math.ceil(items.length / 2);
  await runBatch(run, items.slice(0, middle));
  await runBatch(run, items.slice(middle));
}

/**
 * The request for `items`; `room` caps the answer's tokens at what the server said fits. The
 * schema's length bound stays: capped in characters as well, a grammar would close a longer
 * translation at the cap and the cut would pass as a whole one; an answer the token cap cuts
 * is broken JSON instead, asked again, then an error.
 */
function completionRequest(
  job: TranslationJob,
  items: JobItem[],
  options: BatchOptions,
  room = Infinity,
): CompletionRequest {
  const messages = buildMessages(withFiles(items), {
    ...promptContext(job, items[0].source, items),
    preceding: items[0].preceding,
  });
  const answerTokens = items.reduce(
    (sum, item) => sum + maxAnswerTokens(item, job.alternatives),
    ITEM_OVERHEAD_TOKENS,
  );
  const promptTokens = estimateTokens(messages.system) + estimateTokens(messages.user);
  const contextRoom = Math.max(options.contextTokens - promptTokens - CONTEXT_MARGIN_TOKENS, 64);
  return {
    model: options.model,
    messages,
    schema: answerSchema(items, job.alternatives),
    maxTokens: Math.min(answerTokens, contextRoom, room),
    temperature: options.temperature,
    signal: job.signal,
  };
}

/**
 * `items`, each marked with the number of its file (its run of one group, from 1) when they
 * come from more than one: the prompt tells the model to read each file apart.
 */
function withFiles(items: readonly JobItem[]): JobItem[] {
  let file = 1;
  const marked = items.map((item, index) => {
    if (index > 0 && item.group !== items[index - 1].group) file++;
    return { ...item, file };
  });
  return file === 1 ? [...items] : marked;
}

function promptContext(job: TranslationJob, source: string, items: readonly JobItem[] = []) {
  // Only the terms found in this batch's texts: a whole glossary would crowd the context.
  const glossary: Record<string, string> = {};
  for (const item of items) {
    for (const term of item.terms ?? []) glossary[term.source] = term.target;
  }
  const examples = items.flatMap((item) => item.examples ?? []);
  return {
    source,
    target: job.target,
    mode: job.mode,
    tone: job.tone,
    domain: job.domain,
    context: job.context,
    instructions: job.instructions,
    alternatives: job.alternatives,
    glossary,
    examples,
  };
}

/** Planning cost of the texts a batch reads before its first. */
function precedingCost(texts: readonly string[]): number {
  if (texts.length === 0) return 0;
  return estimateTokens(prompts.preceding) +
    texts.reduce((sum, text) => sum + estimateTokens(text) + ITEM_OVERHEAD_TOKENS, 0);
}

/** Planning cost of an item: its text in the payload plus a typical answer. */
function itemCost(item: JobItem, alternatives: boolean): number {
  const input = estimateTokens(item.text);
  return input + input * 2 * (alternatives ? 4 : 1) + 2 * ITEM_OVERHEAD_TOKENS;
}

/**
 * Token cap for an item's answer: the schema's length bound at one character per token, the
 * worst case, so that a grammar-bound answer is never cut before its closing quote.
 */
function maxAnswerTokens(item: JobItem, alternatives: boolean): number {
  return maxTranslationLength(item.text) * (alternatives ? 4 : 1) + ITEM_OVERHEAD_TOKENS;
}

/**
 * A cheap token estimate that errs high for scripts without spaces: about 3.5 ASCII characters
 * per token, one token per other character.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (char.codePointAt(0)! < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3.5) + other;
}
