/**
 * A seeded fuzzer of the translate path by format and mode: documents of the corpus
 * (tests/fixtures/documents/) mutated the way real texts go wrong (cut anywhere, lines doubled or
 * swapped, stray markup characters, line separators, NUL, a BOM mid-text, lone surrogates,
 * combining and bidi marks, emoji sequences, very long lines) are sent over POST /v1/translate
 * and as WebSocket frames in every `format` × `mode` with random options, to a service whose
 * engine-one is an Ollama stand-in. The oracles on every answer:
 * - never a 5xx, never a hang (each answer within {@link ANSWER_MS});
 * - an error is exactly the service's ErrorResponse, with a message;
 * - a success validates against TranslateResponseSchema, one result per item;
 * - with the `passthrough` stand-in every result equals its item byte for byte;
 * - with the `upper` stand-in (upper-cases text outside placeholders) every result keeps the
 *   item's skeleton (tags, attributes, code, URLs, timing lines; tests/support/document_structure).
 * The same seed sends the same requests: a failure is reproduced by its seed and index.
 */
import {
  ErrorResponseSchema,
  TranslateResponseSchema,
  XML_NAME,
} from "../../schemas/translation.ts";
import { type CorpusDocument, loadCorpus, structureOf } from "./document_structure.ts";
import { createGlossary } from "./glossary_service.ts";
import { upperCase } from "./format_engines.ts";
import { seededRandom } from "./seeded_random.ts";
import type { TestService } from "./translation_service.ts";

/** How long an answer may take before the fuzzer calls it a hang. */
export const ANSWER_MS = 30_000;

/** What the stand-in engine does to each text: nothing, or upper-case it. */
export type FuzzEngine = "passthrough" | "upper";

/** The stand-in's translation for `engine`. */
export function engineFunction(engine: FuzzEngine): (text: string) => string {
  return engine === "passthrough" ? (text) => text : upperCase;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)];

const FORMATS = ["text", "html", "markdown", "xml"] as const;
const MODES = ["selection", "paragraph", "document", "webpage", "message", "subtitle"] as const;

/** What real texts carry that has broken parsers: markup characters, breaks, marks, controls. */
const STRAY = [
  "<",
  ">",
  "&",
  "&amp",
  "*",
  "_",
  "|",
  "`",
  "```",
  "~~~",
  "\r",
  "\r\n",
  "\n",
  "\n\n",
  "\u2028",
  "\u2029",
  "\0",
  "\ufeff",
  "\ud800",
  "\udc00",
  "\u0301",
  "\u0300\u0301\u0302",
  "\u200f",
  "\u202e",
  "\u200d",
  "👩‍👩‍👧‍👦",
  "🏳️‍🌈",
  "👍🏽",
  "-->",
  "<!--",
  "]]>",
  "<b>",
  "</p>",
  "[",
  "](",
  "\\",
  "#",
  "> ",
  "- ",
  "1. ",
  "\t",
  "    ",
  "$",
  "{",
  "}",
];

/** XML's tags, comments, CDATA and processing instructions, as the xml format reads them. */
const XML_MARKUP = new RegExp(
  `<(?:${XML_NAME.source}(?:[ \\t\\r\\n/][^<>]*)?|/${XML_NAME.source}[ \\t\\r\\n]*|!--[^]*?--|!\\[CDATA\\[[^]*?\\]\\]|\\?[^]*?\\?)>`,
  "gu",
);

/** A subtitle cue's timing line (SRT's or WebVTT's). */
const TIMING_LINE =
  /^[ \t]*(?:\d+:)?\d\d:\d\d[.,]\d{3}[ \t]+-->[ \t]+(?:\d+:)?\d\d:\d\d[.,]\d{3}.*$/gm;

/** One mutation of `text`: real-shaped damage at a random place. */
function mutateOnce(random: Random, text: string): string {
  const at = Math.floor(random() * (text.length + 1));
  const roll = random();
  if (roll < 0.12) return text.slice(0, at);
  if (roll < 0.2) return text.slice(at);
  if (roll < 0.35) {
    const lines = text.split("\n");
    const i = Math.floor(random() * lines.length);
    const j = Math.floor(random() * lines.length);
    if (random() < 0.5) lines.splice(i, 0, lines[i]);
    else [lines[i], lines[j]] = [lines[j], lines[i]];
    return lines.join("\n");
  }
  if (roll < 0.4) {
    const long = Array.from(
      { length: 300 + Math.floor(random() * 1500) },
      () => pick(random, ["word", "Wort", "x", "é", "東京", "a_b", "*c*"]),
    ).join(" ");
    return text.slice(0, at) + long + text.slice(at);
  }
  if (roll < 0.45) return text.replaceAll("\n", pick(random, ["\r\n", "\r", "\u2028"]));
  return text.slice(0, at) + pick(random, STRAY) + text.slice(at);
}

/** `text` with 1 to 6 mutations, bounded to the per-item limit. */
export function mutateText(random: Random, text: string): string {
  let mutated = text;
  const count = 1 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) mutated = mutateOnce(random, mutated);
  return [...mutated].slice(0, 7000).join("");
}

/** One planned translate request. */
export interface FuzzCase {
  index: number;
  body: {
    source: string;
    target: string;
    format: string;
    mode: string;
    texts: string[];
    options: Record<string, unknown>;
  };
}

/** Options of {@link planCases}. */
export interface PlanOptions {
  seed: number;
  cases: number;
  /** A glossary of the service for en → de (options.glossary_id). */
  glossaryId?: string;
  /** Send `options.memory` at random (off: a passthrough run compares byte for byte). */
  memory?: boolean;
}

/** The requests of a run, from its seed. */
export function planCases(options: PlanOptions): FuzzCase[] {
  const random = seededRandom(options.seed);
  const corpus: CorpusDocument[] = loadCorpus();
  return Array.from({ length: options.cases }, (_, index) => {
    const format = pick(random, FORMATS);
    const items = 1 + Math.floor(random() * 3);
    const texts = Array.from(
      { length: items },
      () => mutateText(random, pick(random, corpus).text),
    );
    const engineOptions: Record<string, unknown> = { engine: "engine-one" };
    if (random() < 0.3) engineOptions.preserve_formatting = random() < 0.5;
    if (random() < 0.3) engineOptions.return_alternatives = random() < 0.7;
    if (options.glossaryId && random() < 0.3) engineOptions.glossary_id = options.glossaryId;
    if (options.memory && random() < 0.3) engineOptions.memory = true;
    if ((format === "html" || format === "xml") && random() < 0.2) {
      engineOptions.ignore_tags = [pick(random, ["code", "b", "p", "note", "span"])];
    }
    if (format === "xml" && random() < 0.2) {
      engineOptions.splitting_tags = [pick(random, ["p", "br", "x"])];
      engineOptions.outline_detection = random() < 0.5;
    }
    return {
      index,
      body: {
        source: random() < 0.8 ? "en" : "auto",
        target: "de",
        format,
        mode: pick(random, MODES),
        texts,
        options: engineOptions,
      },
    };
  });
}

/** What one answer broke, or nothing. */
export function checkAnswer(
  fuzzCase: FuzzCase,
  engine: FuzzEngine,
  status: number,
  body: unknown,
): string | undefined {
  if (status >= 500) return `status ${status}: ${JSON.stringify(body).slice(0, 300)}`;
  if (status >= 400) {
    const error = ErrorResponseSchema.safeParse(body);
    if (!error.success) return `status ${status} not an ErrorResponse`;
    if (error.data.error.message.trim() === "") return `status ${status} with an empty message`;
    return undefined;
  }
  const parsed = TranslateResponseSchema.safeParse(body);
  if (!parsed.success) return `body does not validate: ${parsed.error.message.slice(0, 300)}`;
  const { texts, format, mode } = fuzzCase.body;
  if (parsed.data.results.length !== texts.length) return "not one result per item";
  for (const [i, result] of parsed.data.results.entries()) {
    if (result.index !== i) return `result ${i} has index ${result.index}`;
    const difference = engine === "passthrough"
      ? passthroughDifference(fuzzCase.body, texts[i], result.text)
      : texts[i].isWellFormed()
      ? skeletonDifference(format, mode, texts[i], result.text)
      // An engine's lone surrogate comes back as U+FFFD, a symbol: Markdown emphasis around it
      // may no longer open and close, and is respelled as HTML (markdown_emphasis_spelling.ts).
      : undefined;
    if (difference) return `item ${i} (${format}/${mode}): ${difference}`;
  }
  return undefined;
}

/**
 * Where a passthrough result differs from its item. Two changes are the service's choices, not
 * damage, and an item they touch is held to its skeleton only (the engine's answer then differs
 * from the source, and the formats treat it as a translation, escapes and all): a lone surrogate
 * an engine answers becomes U+FFFD (engines/chat/translation_protocol.ts: strict JSON readers
 * refuse it), and with a glossary the text goes to the engine in NFC (its terms' offsets are in
 * that form).
 */
function passthroughDifference(
  { options, format, mode }: FuzzCase["body"],
  item: string,
  result: string,
): string | undefined {
  const changedOnTheWay = !item.isWellFormed() ||
    (options.glossary_id !== undefined && item.normalize("NFC") !== item);
  if (changedOnTheWay) {
    const normal = (text: string) =>
      options.glossary_id === undefined
        ? text.toWellFormed()
        : text.toWellFormed().normalize("NFC");
    return skeletonDifference(format, mode, normal(item), normal(result));
  }
  return result === item ? undefined : firstDifference(item, result);
}

function skeletonDifference(
  format: string,
  mode: string,
  input: string,
  output: string,
): string | undefined {
  const skeleton = (text: string) => {
    if (format === "xml") return text.match(XML_MARKUP) ?? [];
    // Of a subtitle item, whatever it holds, its timing lines (a cut file's first lines may be
    // text, translated as a cue's).
    if (format === "text" && mode === "subtitle") return text.match(TIMING_LINE) ?? [];
    return structureOf({ format: format as CorpusDocument["format"], mode, text }).skeleton;
  };
  const before = skeleton(input);
  const after = skeleton(output);
  const i = before.findIndex((part, index) => part !== after[index]);
  if (i === -1 && before.length === after.length) return undefined;
  const at = i === -1 ? Math.min(before.length, after.length) : i;
  return `skeleton part ${at}: ${JSON.stringify(before[at])} became ${JSON.stringify(after[at])}`;
}

/** Where two texts first differ, quoted around that place. */
export function firstDifference(expected: string, actual: string): string {
  let i = 0;
  while (i < expected.length && expected[i] === actual[i]) i++;
  // Escaped beyond ASCII: a combining mark or a control must be seen.
  const around = (text: string) =>
    JSON.stringify(text.slice(Math.max(0, i - 30), i + 30)).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  return `differs at ${i}: sent ${around(expected)}, got ${around(actual)}`;
}

/** Sends `cases` over POST /v1/translate, `concurrency` at a time; returns the failures. */
export async function fuzzHttp(
  service: TestService,
  cases: FuzzCase[],
  engine: FuzzEngine,
  concurrency = 4,
): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const fuzzCase = cases[next++];
      try {
        const response = await fetch(`${service.url}/v1/translate`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-svc-token": service.token },
          body: JSON.stringify(fuzzCase.body),
          signal: AbortSignal.timeout(ANSWER_MS),
        });
        const text = await response.text();
        const failure = checkAnswer(fuzzCase, engine, response.status, parseJson(text));
        if (failure) failures.push(`case ${fuzzCase.index} (http): ${failure}`);
      } catch (error) {
        failures.push(`case ${fuzzCase.index} (http): no answer: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failures;
}

/** Sends `cases` as frames on one socket, one at a time; returns the failures. */
export async function fuzzSocket(
  service: TestService,
  cases: FuzzCase[],
  engine: FuzzEngine,
): Promise<string[]> {
  const failures: string[] = [];
  const socket = new WebSocket(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
  const replies: string[] = [];
  let wake = () => {};
  socket.onmessage = (event) => {
    replies.push(String(event.data));
    wake();
  };
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("WebSocket failed to open"));
  });
  try {
    for (const fuzzCase of cases) {
      const arrived = new Promise<void>((resolve) => (wake = resolve));
      socket.send(JSON.stringify(fuzzCase.body));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hang = new Promise<"hang">((resolve) => timer = setTimeout(resolve, ANSWER_MS, "hang"));
      const outcome = await Promise.race([arrived, hang]);
      clearTimeout(timer);
      if (outcome === "hang") {
        failures.push(`case ${fuzzCase.index} (ws): no reply within ${ANSWER_MS} ms`);
        return failures;
      }
      const body = parseJson(replies.shift()!);
      const error = ErrorResponseSchema.safeParse(body);
      const status = error.success ? (error.data.error.type === "server_error" ? 500 : 400) : 200;
      const failure = checkAnswer(fuzzCase, engine, status, body);
      if (failure) failures.push(`case ${fuzzCase.index} (ws): ${failure}`);
    }
  } finally {
    socket.close(1000);
  }
  return failures;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A run of the fuzzer: its engine, seed, requests and how many go again as frames. */
export interface FuzzRun {
  engine: FuzzEngine;
  seed: number;
  requests: number;
  frames: number;
}

/**
 * Runs the fuzzer on `service` (engine-one the stand-in of `run.engine`): a small glossary, the
 * planned cases over HTTP, the first `run.frames` of them on the WebSocket; returns the failures.
 */
export async function fuzzService(service: TestService, run: FuzzRun): Promise<string[]> {
  const { glossary_id } = await createGlossary(
    service,
    "Fuzz",
    ["en", "de"],
    "the\tthe\nSave\t\nmenu\tMenu\n",
  );
  const cases = planCases({
    seed: run.seed,
    cases: run.requests,
    glossaryId: glossary_id,
    // Memory only with the changing engine: it reuses a translation by its whitespace-normalised
    // source (DECISIONS.md), which is no byte-for-byte copy.
    memory: run.engine === "upper",
  });
  return [
    ...await fuzzHttp(service, cases, run.engine),
    ...await fuzzSocket(service, cases.slice(0, run.frames), run.engine),
  ];
}
