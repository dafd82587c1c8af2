/**
 * The translation protocol shared by the LLM engines: one batch goes out as one JSON payload with
 * stable ids, the answer is requested against a JSON Schema that fixes those ids, and whatever
 * comes back is still parsed strictly (every id exactly once, non-empty text within its bound).
 *
 * Pure: no I/O. Prompts are data in `prompts.json`.
 */
import { looksLikePlaceholder } from "../placeholder_tokens.ts";
import prompts from "./prompts.json" with { type: "json" };
import { MAX_ALTERNATIVES } from "../../schemas/translation.ts";
import { DUPLICATED, parseJsonMarkingDuplicates } from "./strict_json.ts";
import { jsonRepairs, keyedByPosition } from "./json_repairs.ts";

/** One text of a batch, under its stable id. */
export interface ProtocolItem {
  id: string;
  text: string;
  /**
   * Which of the request's texts (a subtitle file) the item is a piece of, when the batch holds
   * pieces of more than one: the model reads each file's items apart. Undefined: one text.
   */
  file?: number;
}

/** What the prompt says about a batch (every item of a batch shares its source). */
export interface PromptContext {
  /** BCP 47 code of the texts' language; "und" when unknown. */
  source: string;
  /** BCP 47 code of the language to translate into. */
  target: string;
  mode: string;
  tone?: string;
  domain?: string;
  /** Text around the items, sent as data beside them (never in the system prompt). */
  context?: string;
  /**
   * The texts just before the first item (a subtitle file's earlier cues, sent in an earlier
   * request): read with the items, never translated.
   */
  preceding?: readonly string[];
  /** The caller's instructions on how to translate: instructions, so in the system prompt. */
  instructions?: readonly string[];
  alternatives: boolean;
  /** Term → translation pairs the answer must use; an empty translation: keep the term. */
  glossary?: Record<string, string>;
  /** Earlier translations of similar texts (translation memory) to follow where they fit. */
  examples?: readonly { source: string; target: string }[];
}

/** The chat messages of one request. */
export interface ProtocolMessages {
  system: string;
  user: string;
}

/** The messages as both chat APIs (Ollama's and the chat-completions one) take them. */
export function toChatMessages(messages: ProtocolMessages) {
  return [
    { role: "system", content: messages.system },
    { role: "user", content: messages.user },
  ];
}

/** One usable translation from an answer. */
export interface ParsedTranslation {
  text: string;
  alternatives: string[];
}

/** An answer split into usable translations and the ids that must be asked again. */
export interface ParsedAnswer {
  translations: Map<string, ParsedTranslation>;
  /** Ids with no usable translation, each with why (never the text itself). */
  problems: Map<string, string>;
}

/** Openings (and closings per opening) tried when the JSON sits in prose: bounds work on junk. */
const MAX_JSON_STARTS = 8;
const LANGUAGE_NAMES = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/**
 * Builds the system prompt and the JSON payload for a batch.
 *
 * @example
 * ```ts
 * const { system, user } = buildMessages([{ id: "1", text: "Hallo" }], {
 *   source: "de", target: "en", mode: "paragraph", alternatives: false,
 * });
 * ```
 */
export function buildMessages(items: ProtocolItem[], context: PromptContext): ProtocolMessages {
  const slots: Record<string, string> = {
    source: languageName(context.source),
    target: languageName(context.target),
    mode: (prompts.mode as Record<string, string>)[context.mode] ?? "",
    tone: context.tone ? fill(prompts.tone, { tone: context.tone }) : "",
    domain: context.domain ? fill(prompts.domain, { domain: context.domain }) : "",
    context: context.context ? prompts.context : "",
    preceding: context.preceding?.length ? prompts.preceding : "",
    files: items.some((item) => item.file !== undefined) ? prompts.files : "",
    instructions: context.instructions?.length
      ? fill(prompts.instructions, {
        instructions: context.instructions.map((line) => JSON.stringify(line)).join("; "),
      })
      : "",
    glossary: glossaryLine(context.glossary),
    placeholders: items.some((item) => looksLikePlaceholder(item.text)) ? prompts.placeholders : "",
    examples: context.examples?.length
      ? fill(prompts.examples, {
        examples: context.examples.slice(0, 8).map((example) =>
          `${JSON.stringify(example.source)} → ${JSON.stringify(example.target)}`
        ).join("; "),
      })
      : "",
    answer: context.alternatives ? prompts.answer.alternatives : prompts.answer.plain,
  };
  const system = prompts.system.map((line) => fill(line, slots)).filter((line) => line !== "")
    .join("\n");
  const user = JSON.stringify({
    source_language: context.source,
    target_language: context.target,
    ...(context.context ? { context: context.context } : {}),
    ...(context.preceding?.length ? { preceding: context.preceding } : {}),
    items: items.map(({ id, text, file }) =>
      file === undefined ? { id, text } : { id, text, file }
    ),
  });
  return { system, user };
}

/**
 * Longest translation (code points) of a text: room for expansion, bounded. The answer schema
 * asks for it (`maxLength`) and {@link parseAnswer} enforces it, since not every server follows
 * the schema.
 */
export function maxTranslationLength(text: string): number {
  return 3 * [...text].length + 32;
}

/**
 * The JSON Schema of an answer: an object whose keys are exactly the batch's ids, each mapped
 * to a non-empty translation (or to `{text, alternatives}` when alternatives are asked for), of
 * at most {@link maxTranslationLength} characters.
 */
export function answerSchema(
  items: ProtocolItem[],
  alternatives: boolean,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const item of items) {
    const text = { type: "string", minLength: 1, maxLength: maxTranslationLength(item.text) };
    properties[item.id] = alternatives
      ? {
        type: "object",
        properties: {
          text,
          alternatives: { type: "array", items: text, maxItems: MAX_ALTERNATIVES },
        },
        required: ["text", "alternatives"],
        additionalProperties: false,
      }
      : text;
  }
  return {
    type: "object",
    properties,
    required: items.map((item) => item.id),
    additionalProperties: false,
  };
}

/**
 * Parses a model's answer for `items`, strictly: reasoning blocks, code fences and prose around
 * the JSON are dropped; an id is usable only when it appears exactly once with non-empty text
 * within {@link maxTranslationLength} of its item (longer alternatives are dropped). An answer
 * that names ids outside the batch is not trusted at all (items may have shifted).
 */
export function parseAnswer(content: string, items: readonly ProtocolItem[]): ParsedAnswer {
  const ids = items.map((item) => item.id);
  const translations = new Map<string, ParsedTranslation>();
  const problems = new Map<string, string>();
  const rejectAll = (why: string) => {
    for (const id of ids) problems.set(id, why);
    return { translations, problems };
  };

  const json = keyedByPosition(unwrapString(readJson(content)), ids);
  if (json === undefined) return rejectAll("the answer holds no JSON");
  const mirrored = mirrorsPayload(json);
  const entries = toEntries(mirrored ? json.items : json);
  if (!entries) return rejectAll("the answer is not an object of ids");

  const expected = new Set(ids);
  const unexpected = [...new Set(entries.map(([id]) => id).filter((id) => !expected.has(id)))];
  if (unexpected.length > 0) {
    return rejectAll(
      `the answer names ids outside the batch (${unexpected.slice(0, 5).join(", ")})`,
    );
  }
  const seen = new Map<string, unknown[]>();
  for (const [id, value] of entries) seen.set(id, [...(seen.get(id) ?? []), value]);
  for (const { id, text } of items) {
    const values = seen.get(id) ?? [];
    if (values.length === 0) problems.set(id, "missing");
    else if (values.length > 1) problems.set(id, "duplicated");
    else {
      const parsed = toTranslation(values[0], maxTranslationLength(text));
      if (typeof parsed === "string") problems.set(id, parsed);
      else translations.set(id, parsed);
    }
  }
  // The request sent back as it came (a model echoing its input) translates nothing.
  if (mirrored && items.every(({ id, text }) => translations.get(id)?.text === text.trim())) {
    translations.clear();
    return rejectAll("the answer repeats the request");
  }
  return { translations, problems };
}

/** The members of the payload {@link buildMessages} sends. */
const PAYLOAD_KEYS = new Set([
  "source_language",
  "target_language",
  "context",
  "preceding",
  "items",
]);

/**
 * Whether an answer has the payload's shape (`{source_language, …, items: [{id, text}]}`): what
 * a small model writes when the server ignores the schema and it copies what it was sent. A bare
 * `{"items": …}` is one of the shapes {@link toEntries} reads, whatever its texts say.
 */
function mirrorsPayload(json: unknown): json is { items: unknown[] } {
  return isRecord(json) && Array.isArray(json.items) &&
    ("source_language" in json || "target_language" in json) &&
    Object.keys(json).every((key) => PAYLOAD_KEYS.has(key));
}

/** The JSON of an answer (wrappers, prose and {@link jsonRepairs} allowed), or undefined. */
function readJson(content: string): unknown {
  const stripped = stripWrappers(content);
  const json = extractJson(stripped);
  if (json !== undefined) return json;
  for (const repaired of jsonRepairs(stripped)) {
    const json = extractJson(repaired);
    if (json !== undefined) return json;
  }
  return undefined;
}

/**
 * The JSON inside a JSON string, once: some servers and proxies encode the structured output
 * twice (`"{\"1\": \"Hi\"}"`). A string that holds no JSON stays as it is (not an object).
 */
function unwrapString(json: unknown): unknown {
  return typeof json === "string" ? readJson(json) ?? json : json;
}

/**
 * Drops the reasoning before the answer (`<think>` blocks, closed or not) and a surrounding code
 * fence. Only before it: a tag further on is a translation quoting one (a text about thinking
 * models), kept as written.
 */
function stripWrappers(content: string): string {
  let text = content.replace(/^\s*(?:<(think|thinking|reasoning)>[\s\S]*?<\/\1>\s*)+/i, "");
  // A lone closing tag before the answer means the opening one was eaten by the server's
  // template; an unclosed block at the start means the model never left its reasoning.
  if (!/^\s*[{[`]/.test(text)) text = text.replace(/^[\s\S]*?<\/(think|thinking|reasoning)>/i, "");
  if (/^\s*<(think|thinking|reasoning)>/i.test(text)) return "";
  // A fence around the answer opens and closes at the start of a line; inside a JSON string a
  // line break is written `\n`, so a translation quoting code never looks like one.
  const fenced = /(?:^|\n)[ \t]*```[a-zA-Z]*[ \t]*\n([\s\S]*?)\n[ \t]*```/.exec(text);
  return (fenced ? fenced[1] : text).trim();
}

/**
 * The first JSON object or array in `text` (prose around it allowed), or undefined; a key written
 * twice in one object maps to {@link DUPLICATED}.
 */
function extractJson(text: string): unknown {
  try {
    return parseJsonMarkingDuplicates(text);
  } catch {
    // fall through: look for the JSON inside prose
  }
  let tries = 0;
  for (let start = 0; start < text.length && tries < MAX_JSON_STARTS; start++) {
    const open = text[start];
    if (open !== "{" && open !== "[") continue;
    tries++;
    const close = open === "{" ? "}" : "]";
    let end = text.lastIndexOf(close);
    for (let ends = 0; end > start && ends < MAX_JSON_STARTS; ends++) {
      try {
        return parseJsonMarkingDuplicates(text.slice(start, end + 1));
      } catch {
        end = text.lastIndexOf(close, end - 1); // try a shorter span
      }
    }
  }
  return undefined;
}

/**
 * `[id, value]` pairs of an answer: the requested `{id: value}` object, or the shapes models
 * produce when a server ignores the schema (`[{id, text}]`, `{"translations": …}`).
 */
function toEntries(json: unknown): [string, unknown][] | undefined {
  if (Array.isArray(json)) {
    const entries: [string, unknown][] = [];
    for (const element of json) {
      if (
        !isRecord(element) || (typeof element.id !== "string" && typeof element.id !== "number")
      ) {
        return undefined;
      }
      const { id, ...rest } = element;
      entries.push([String(id), "text" in rest ? rest : rest.translation ?? rest]);
    }
    return entries;
  }
  if (!isRecord(json)) return undefined;
  const keys = Object.keys(json);
  if (keys.length === 1 && /^(translations|items|results|data)$/i.test(keys[0])) {
    const inner = json[keys[0]];
    if (Array.isArray(inner) || isRecord(inner)) return toEntries(inner);
  }
  return Object.entries(json);
}

/** A translation of at most `maxLength` code points, or the reason the value is unusable. */
function toTranslation(value: unknown, maxLength: number): ParsedTranslation | string {
  if (value === DUPLICATED) return "duplicated";
  let text: unknown = value;
  let alternatives: unknown = [];
  if (isRecord(value)) {
    text = value.text ?? value.translation;
    alternatives = value.alternatives ?? [];
  }
  if (text === DUPLICATED) return "duplicated";
  if (typeof text !== "string") return `not a string (${describeType(text)})`;
  // A lone surrogate (`\ud83d`, half an emoji's escape) is valid JSON but no Unicode text, and
  // strict JSON readers refuse it in our answer: U+FFFD, as a decoder reads a broken byte.
  const wellFormed = text.toWellFormed();
  const fits = (candidate: string) => [...candidate].length <= maxLength;
  // The length only, never the text: it may be whatever the model ran on into.
  if (!fits(wellFormed)) return `longer than the ${maxLength} characters allowed for its text`;
  const trimmed = wellFormed.trim();
  if (trimmed === "") return "empty text";
  const distinct = Array.isArray(alternatives)
    ? [
      ...new Set(
        alternatives.filter((alt): alt is string => typeof alt === "string" && fits(alt))
          .map((alt) => alt.toWellFormed().trim()).filter((alt) => alt !== "" && alt !== trimmed),
      ),
    ]
    : [];
  return { text: trimmed, alternatives: distinct.slice(0, MAX_ALTERNATIVES) };
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function languageName(code: string): string {
  if (code === "und") return prompts.unknown_source;
  const name = LANGUAGE_NAMES.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

function glossaryLine(glossary: Record<string, string> | undefined): string {
  const pairs = Object.entries(glossary ?? {});
  if (pairs.length === 0) return "";
  return fill(prompts.glossary, {
    terms: pairs.map(([term, translation]) =>
      translation === ""
        ? `${JSON.stringify(term)} → ${prompts.glossary_keep}`
        : `${JSON.stringify(term)} → ${JSON.stringify(translation)}`
    ).join("; "),
  });
}

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => slots[name] ?? "").trim();
}
