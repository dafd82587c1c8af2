/**
 * The DeepL glossary adapter: DeepL's glossary requests (v3: JSON, or forms with
 * `dictionaries[0].entries`; v2: one language pair) become tolk's glossary inputs, tolk's
 * glossaries become DeepL's (v2 sees the glossaries with one dictionary).
 * Pure: no Hono; parsing and storing the entries stays with tolk's glossary code.
 */
import { serviceError } from "../errors/translation_errors.ts";
import {
  DeepLDictionaryInputSchema,
  type DeepLDictionarySummarySchema,
  DeepLGlossaryRequestSchema,
  type DeepLGlossarySchema,
  DeepLV2GlossaryRequestSchema,
  type DeepLV2GlossarySchema,
} from "../schemas/compat/deepl.ts";
import {
  CreateGlossaryRequestSchema,
  type DictionaryInput,
  MAX_GLOSSARY_ENTRIES,
} from "../schemas/glossary.ts";
import { LANGUAGE_CODES, type LanguageCode } from "../schemas/languages.ts";
import type { GlossaryRecord } from "../storage/glossary_store.ts";
import type { z } from "zod";
import { formatTsv, type GlossaryEntry } from "../translation/glossary/entries_text.ts";
import type { DictionaryPair } from "../translation/glossary/glossary_step.ts";
import { readFields, readLanguage } from "./compat_request.ts";
import { toClientLanguage } from "./language_spellings.ts";

const FORM_FIELD = /^dictionaries\[(\d+)\]\.(source_lang|target_lang|entries|entries_format)$/;

/** What a DeepL glossary request asks for, in tolk's terms. */
export interface DeepLGlossaryInput {
  name?: string;
  dictionaries: DictionaryInput[];
}

/**
 * DeepL glossary fields (JSON `dictionaries: [...]` or form `dictionaries[i].field`) → tolk's
 * glossary input. Languages in any spelling; `entries_format` defaults to tsv.
 *
 * @throws {TranslationServiceError} for a missing name (`requireName`), no dictionaries
 * (`requireDictionaries`), an unknown language or entries format.
 */
export function fromDeepLGlossaryRequest(
  body: Record<string, unknown>,
  required: { name: boolean; dictionaries: boolean },
): DeepLGlossaryInput {
  // A JSON list is read whole (errors name `dictionaries[i].field`); anything else there than a
  // list is refused by the schema, not taken for a form without dictionaries.
  const fields = readFields(DeepLGlossaryRequestSchema, body);
  const dictionaries = (fields.dictionaries ?? formDictionaries(body))
    .map((dictionary, index) => fromDeepLDictionary(dictionary, `dictionaries[${index}]`));
  const name = readGlossaryName(fields.name);
  if (required.name && name === undefined) {
    throw serviceError("invalid_request", "Parameter 'name' not specified.", { param: "name" });
  }
  if (required.dictionaries && dictionaries.length === 0) {
    throw serviceError("invalid_request", "Parameter 'dictionaries' not specified.", {
      param: "dictionaries",
    });
  }
  return { ...(name === undefined ? {} : { name }), dictionaries };
}

/**
 * One DeepL dictionary: an element of a request at `param` (`dictionaries[0]`), or, when `param`
 * is empty, a body of top-level fields (PUT /v3/glossaries/{id}/dictionaries, a v2 glossary).
 *
 * @throws {TranslationServiceError} for an unknown language or entries format.
 */
export function fromDeepLDictionary(body: unknown, param = ""): DictionaryInput {
  const fields = readFields(DeepLDictionaryInputSchema, body, param);
  const field = (name: string) => param ? `${param}.${name}` : name;
  const format = fields.entries_format ?? "tsv";
  if (format !== "tsv" && format !== "csv") {
    throw serviceError("invalid_request", `${field("entries_format")} must be tsv or csv`, {
      param: field("entries_format"),
    });
  }
  return {
    source_lang: readLanguage(fields.source_lang, field("source_lang"), "deepl"),
    target_lang: readLanguage(fields.target_lang, field("target_lang"), "deepl"),
    entries: fields.entries,
    entries_format: format,
  };
}

/**
 * A DeepL glossary name held to tolk's rule for names (the glossary is one of tolk's, shown by
 * /v1/glossaries); undefined when absent or empty (DeepL's "not specified").
 *
 * @throws {TranslationServiceError} `invalid_request` naming `name` when it is too long.
 */
function readGlossaryName(name: string | undefined): string | undefined {
  if (name === undefined || name === "") return undefined;
  return readFields(CreateGlossaryRequestSchema.shape.name, name, "name");
}

/**
 * A DeepL v2 glossary request (name and one language pair) → tolk's glossary input.
 *
 * @throws {TranslationServiceError} for a missing field, an unknown language or entries format.
 */
export function fromDeepLV2GlossaryRequest(body: unknown): DeepLGlossaryInput {
  const name = readGlossaryName(readFields(DeepLV2GlossaryRequestSchema, body).name);
  if (name === undefined) {
    throw serviceError("invalid_request", "Parameter 'name' not specified.", { param: "name" });
  }
  return { name, dictionaries: [fromDeepLDictionary(body, "")] };
}

/**
 * A tolk glossary → DeepL's v2 glossary, which has one language pair.
 *
 * @throws {TranslationServiceError} `invalid_request` for a glossary with several dictionaries
 * (only DeepL's v3 routes show those).
 */
export function toDeepLV2Glossary(record: GlossaryRecord): z.infer<typeof DeepLV2GlossarySchema> {
  const dictionary = v2Dictionary(record);
  return {
    glossary_id: record.id,
    name: record.name,
    ready: true,
    source_lang: toDeepLGlossaryLanguage(dictionary.sourceLang),
    target_lang: toDeepLGlossaryLanguage(dictionary.targetLang),
    creation_time: new Date(record.created).toISOString(),
    entry_count: dictionary.entryCount,
  };
}

/** Whether DeepL's v2 routes can show a glossary: it has exactly one dictionary. */
export function isV2Glossary(record: GlossaryRecord): boolean {
  return record.dictionaries.length === 1;
}

/**
 * The one dictionary of a glossary DeepL's v2 routes show.
 *
 * @throws {TranslationServiceError} `invalid_request` for a glossary with several dictionaries
 * (only DeepL's v3 routes show those).
 */
export function v2Dictionary(record: GlossaryRecord): GlossaryRecord["dictionaries"][number] {
  if (isV2Glossary(record)) return record.dictionaries[0];
  throw serviceError(
    "invalid_request",
    `this glossary holds ${record.dictionaries.length} dictionaries: read it through ` +
      "/v3/glossaries",
    { param: "glossary_id" },
  );
}

/**
 * The glossary dictionary that serves a translation. DeepL applies a glossary only to its own
 * language pair, and refuses a translation whose pair the glossary lacks (deepl-node: "The
 * source and target languages must match the glossary") rather than translating without the
 * user's terms. DeepL's glossaries know one Chinese, `zh`, which serves ZH-HANS and ZH-HANT
 * targets alike (deepl-node's createGlossary sends "zh-Hant" as `zh`, which tolk reads as
 * Simplified) and DeepL's one Chinese source, `ZH`: a dictionary from or into one Chinese script
 * serves the other when the glossary has none of its own. An unknown glossary (`null`) is left to
 * the translation's own refusal: the request's pair is answered.
 *
 * @throws {TranslationServiceError} `invalid_request` naming `glossary_id` and the pairs the
 * glossary has.
 */
export function glossaryPairFor(
  record: GlossaryRecord | null,
  sourceLang: string,
  targetLang: string,
): DictionaryPair {
  const asked = { source: sourceLang, target: targetLang };
  if (!record) return asked;
  const served = servingDictionary(record.dictionaries, sourceLang, targetLang);
  if (served) return { source: served.sourceLang, target: served.targetLang };
  const spelled = (source: string, target: string) =>
    `${toDeepLGlossaryLanguage(source)}→${toDeepLGlossaryLanguage(target)}`;
  const has = record.dictionaries.map((d) => spelled(d.sourceLang, d.targetLang)).join(", ") ||
    "none";
  throw serviceError(
    "invalid_request",
    `The glossary has no ${spelled(sourceLang, targetLang)} dictionary, so it cannot be used ` +
      `for this translation (its language pairs: ${has}).`,
    { param: "glossary_id" },
  );
}

/** A dictionary's language pair, as tolk stores it. */
interface LanguagePair {
  sourceLang: string;
  targetLang: string;
}

/**
 * The dictionary that serves `sourceLang`→`targetLang` (see {@link glossaryPairFor}): the exact
 * pair first, then one differing in a Chinese script; undefined when the glossary has neither.
 */
function servingDictionary<D extends LanguagePair>(
  dictionaries: readonly D[],
  sourceLang: string,
  targetLang: string,
): D | undefined {
  const sameLanguage = (a: string, b: string) => a === b || CHINESE_SCRIPT_PARTNER[a] === b;
  return dictionaries.find((d) => d.sourceLang === sourceLang && d.targetLang === targetLang) ??
    dictionaries.find((d) =>
      sameLanguage(d.sourceLang, sourceLang) && sameLanguage(d.targetLang, targetLang)
    );
}

/**
 * The dictionaries a DeepL language filter (entries, dictionary delete) names: each one that would
 * serve a translation of a pair the filter allows, so that a pair read, deleted and translated
 * with is the same dictionary. DeepL's one `zh` makes `en`→`zh-Hant` name a glossary's `en`→`zh`
 * dictionary when it has no `en`→`zh-Hant` of its own; with both, each script names its own.
 * Writes (PUT, PATCH) keep the script they name: tolk keeps Simplified and Traditional terms in
 * dictionaries of their own, and merging one into the other would write one script's terms into
 * the other's translations.
 */
export function dictionariesNamed<D extends LanguagePair>(
  dictionaries: readonly D[],
  filter: { sourceLang?: string; targetLang?: string },
): D[] {
  return dictionaries.filter((d) =>
    servingDictionary(
      dictionaries,
      filter.sourceLang ?? d.sourceLang,
      filter.targetLang ?? d.targetLang,
    ) === d
  );
}

/** Each Chinese script's other one: DeepL's glossary `zh` is either. */
const CHINESE_SCRIPT_PARTNER: Readonly<Record<string, string>> = {
  "zh-Hans": "zh-Hant",
  "zh-Hant": "zh-Hans",
};

/** Every language pair a glossary may have (GET /v2/glossary-language-pairs). */
export function glossaryLanguagePairs() {
  return LANGUAGE_CODES.flatMap((source) =>
    LANGUAGE_CODES.filter((target) => target !== source).map((target) => ({
      source_lang: toDeepLGlossaryLanguage(source),
      target_lang: toDeepLGlossaryLanguage(target),
    }))
  );
}

/** A tolk language as DeepL's glossaries write it: lower case, Traditional Chinese apart. */
export function toDeepLGlossaryLanguage(code: string): string {
  return code === "zh-Hant" ? "zh-hant" : toClientLanguage(code, "deepl").toLowerCase();
}

/** A tolk glossary → DeepL's v3 glossary. */
export function toDeepLGlossary(record: GlossaryRecord): z.infer<typeof DeepLGlossarySchema> {
  return {
    glossary_id: record.id,
    name: record.name,
    dictionaries: record.dictionaries.map((dictionary) =>
      toDeepLDictionarySummary(dictionary.sourceLang, dictionary.targetLang, dictionary.entryCount)
    ),
    creation_time: new Date(record.created).toISOString(),
  };
}

/** One dictionary's summary in DeepL's spelling. */
export function toDeepLDictionarySummary(
  sourceLang: string,
  targetLang: string,
  entryCount: number,
): z.infer<typeof DeepLDictionarySummarySchema> {
  return {
    source_lang: toDeepLGlossaryLanguage(sourceLang),
    target_lang: toDeepLGlossaryLanguage(targetLang),
    entry_count: entryCount,
  };
}

/**
 * Reads an optional language filter of a query.
 *
 * @throws {TranslationServiceError} `unsupported_language` for an unknown one.
 */
export function readLanguageFilter(value: string | undefined, param: string) {
  return value ? readLanguage(value, param, "deepl") as LanguageCode : undefined;
}

/** Gathers `dictionaries[i].field` form fields into dictionaries, by index. */
function formDictionaries(body: Record<string, unknown>): Record<string, unknown>[] {
  const byIndex = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(body)) {
    const match = key.match(FORM_FIELD);
    if (!match) continue;
    const index = Number(match[1]);
    if (!byIndex.has(index)) byIndex.set(index, {});
    byIndex.get(index)![match[2]] = value;
  }
  return [...byIndex.keys()].sort((a, b) => a - b).map((index) => byIndex.get(index)!);
}

/** One glossary entry (an empty target keeps the source term). */
export interface Entry {
  source: string;
  target: string;
}

/**
 * DeepL's PATCH merges a dictionary into the one of its pair (PUT replaces): a source term
 * already there (case-insensitive, as tolk's dictionaries compare) takes the new target in its
 * place; new terms follow in their order.
 *
 * @throws {TranslationServiceError} `invalid_request` when the merge is over 10000 entries.
 */
export function mergeEntries(
  existing: readonly Entry[],
  incoming: readonly Entry[],
  param: string,
): Entry[] {
  const incomingByKey = new Map(incoming.map((entry) => [entry.source.toLowerCase(), entry]));
  const merged = existing.map((entry) => {
    const key = entry.source.toLowerCase();
    const replacement = incomingByKey.get(key);
    if (replacement) incomingByKey.delete(key);
    return replacement ?? entry;
  });
  merged.push(...incomingByKey.values());
  if (merged.length > MAX_GLOSSARY_ENTRIES) {
    throw serviceError(
      "invalid_request",
      `${param}: the merged dictionary would hold more than ${MAX_GLOSSARY_ENTRIES} entries`,
      { param },
    );
  }
  return merged;
}

/**
 * Entries as DeepL's TSV: a term kept as it is (tolk's empty target, `tolk\t`) is written as
 * DeepL writes one, with itself as target — deepl-node refuses an empty term ("'' is not a
 * valid term") and could not read such a glossary's entries at all. Terms are written as they
 * are: DeepL's TSV has no quoting, and its clients split lines at the tab.
 */
export function toDeepLTsv(entries: readonly GlossaryEntry[]): string {
  return formatTsv(
    entries.map((entry) => entry.target === "" ? { ...entry, target: entry.source } : entry),
    { quoting: false },
  );
}
