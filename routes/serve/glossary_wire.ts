/**
 * What the glossary routes share: request dictionaries → validated store dictionaries (errors
 * name the dictionary and line), store records → wire bodies, and the 404 for an unknown id.
 */
import { serviceError } from "../../errors/translation_errors.ts";
import type { DictionaryInput, GlossaryBody } from "../../schemas/glossary.ts";
import type {
  GlossaryRecord,
  GlossaryStore,
  StoredDictionary,
} from "../../storage/glossary_store.ts";
import { EntriesTextError, parseEntries } from "../../translation/glossary/entries_text.ts";
import { fromClientLanguage, LANGUAGE_NAMES } from "../../compat/language_spellings.ts";
import { toLanguageCode } from "../../translation/memory/tmx.ts";
import { checkLanguagePair } from "./language_pair.ts";

/**
 * Parses every dictionary. One with no entries is a 400: when it removed its pair, an empty file
 * uploaded by mistake deleted the user's terms (a pair is removed by its own DELETE).
 */
export function toStoredDictionaries(dictionaries: readonly DictionaryInput[]): StoredDictionary[] {
  const pairs = new Set<string>();
  return dictionaries.map((dictionary, index) => {
    const pair = `${dictionary.source_lang}→${dictionary.target_lang}`;
    checkLanguagePair(
      dictionary.source_lang,
      dictionary.target_lang,
      `dictionaries[${index}].target_lang`,
      `dictionaries[${index}]: `,
    );
    if (pairs.has(pair)) {
      throw serviceError("invalid_request", `dictionaries[${index}]: ${pair} appears twice`, {
        param: `dictionaries[${index}]`,
      });
    }
    pairs.add(pair);
    const param = `dictionaries[${index}].entries`;
    let entries;
    try {
      entries = parseEntries(
        dictionary.entries,
        dictionary.entries_format,
        (source, target) =>
          languageOf(source) === dictionary.source_lang &&
          languageOf(target) === dictionary.target_lang,
      );
    } catch (error) {
      if (!(error instanceof EntriesTextError)) throw error;
      throw serviceError("invalid_request", `${param} ${error.message}`, { param });
    }
    if (entries.length === 0) {
      throw serviceError("invalid_request", `${param} holds no entries`, { param });
    }
    return { sourceLang: dictionary.source_lang, targetLang: dictionary.target_lang, entries };
  });
}

/**
 * The language a glossary file names, by a client's spelling of its code, a language tag with a
 * region (`DE-DE`, as term bases head their columns) or its English name (`German`).
 */
function languageOf(spelling: string): string | undefined {
  const name = spelling.trim().toLowerCase();
  return fromClientLanguage(spelling) ?? toLanguageCode(spelling.trim()) ??
    Object.entries(LANGUAGE_NAMES).find(([, english]) => english.toLowerCase() === name)?.[0];
}

/** A glossary record as the wire shows it. */
export function toGlossaryBody(record: GlossaryRecord): GlossaryBody {
  return {
    glossary_id: record.id,
    name: record.name,
    dictionaries: record.dictionaries.map((d) => ({
      source_lang: d.sourceLang as GlossaryBody["dictionaries"][number]["source_lang"],
      target_lang: d.targetLang as GlossaryBody["dictionaries"][number]["target_lang"],
      entry_count: d.entryCount,
    })),
    creation_time: new Date(record.created).toISOString(),
  };
}

/** The 404 of a glossary without a dictionary of this pair. */
export function unknownDictionary(sourceLang: string, targetLang: string) {
  return serviceError(
    "not_found",
    `the glossary has no ${sourceLang}→${targetLang} dictionary`,
    { param: "target_lang" },
  );
}

/**
 * Removes the dictionary of one pair, the others kept.
 *
 * @throws the 404 of {@link unknownGlossary} or {@link unknownDictionary}.
 */
export function removeDictionary(
  glossaries: GlossaryStore,
  id: string,
  pair: { sourceLang: string; targetLang: string },
): void {
  existingGlossary(glossaries, id);
  if (glossaries.dictionary(id, pair.sourceLang, pair.targetLang) === null) {
    throw unknownDictionary(pair.sourceLang, pair.targetLang);
  }
  // The glossary may have been deleted in between.
  if (!glossaries.patch(id, { dictionaries: [{ ...pair, entries: [] }] })) throw unknownGlossary();
}

/** The 404 of an unknown glossary id. */
export function unknownGlossary() {
  return serviceError("not_found", "no glossary with this id", { param: "glossary_id" });
}

/** The glossary of this id; an unknown one is the 404 of {@link unknownGlossary}. */
export function existingGlossary(glossaries: GlossaryStore, id: string): GlossaryRecord {
  const record = glossaries.get(id);
  if (!record) throw unknownGlossary();
  return record;
}
