/**
 * DeepL's v3 glossaries under `/v1/compat/deepl/v3/glossaries`, on tolk's glossaries: create,
 * list, get, entries, patch (merges a dictionary, as DeepL does), replace (PUT) or delete a
 * dictionary, delete. Thin: body → adapter →
 * glossary store → adapter; errors reach DeepL's shape through the DeepL sub-app.
 */
import { Hono } from "hono";
import {
  dictionariesNamed,
  fromDeepLDictionary,
  fromDeepLGlossaryRequest,
  mergeEntries,
  readLanguageFilter,
  toDeepLDictionarySummary,
  toDeepLGlossary,
  toDeepLGlossaryLanguage,
  toDeepLTsv,
} from "../../../compat/deepl_glossaries.ts";
import { serviceError } from "../../../errors/translation_errors.ts";
import type { GlossaryStore } from "../../../storage/glossary_store.ts";
import {
  existingGlossary,
  removeDictionary,
  toStoredDictionaries,
  unknownDictionary,
  unknownGlossary,
} from "../glossary_wire.ts";
import { readCompatBody } from "./compat_app.ts";

/** The DeepL v3 glossary sub-app (mounted inside the DeepL one, which renders its errors). */
export function deeplGlossariesRoute(deps: { glossaries: GlossaryStore }) {
  const { glossaries } = deps;
  const existing = (id: string) => existingGlossary(glossaries, id);
  return new Hono()
    .post("/", async (c) => {
      const input = fromDeepLGlossaryRequest(await readCompatBody(c), {
        name: true,
        dictionaries: true,
      });
      const record = glossaries.create(
        input.name!,
        toStoredDictionaries(input.dictionaries),
      );
      return c.json(toDeepLGlossary(record), 201);
    })
    .get("/", (c) => c.json({ glossaries: glossaries.list().map(toDeepLGlossary) }))
    .get("/:glossary_id", (c) => c.json(toDeepLGlossary(existing(c.req.param("glossary_id")))))
    .get("/:glossary_id/entries", (c) => {
      const id = c.req.param("glossary_id");
      const sourceLang = readLanguageFilter(c.req.query("source_lang"), "source_lang");
      const targetLang = readLanguageFilter(c.req.query("target_lang"), "target_lang");
      const named = dictionariesNamed(existing(id).dictionaries, { sourceLang, targetLang });
      // A pair named in full is one dictionary, which DeepL answers 404 when the glossary lacks it
      // (a client reads `dictionaries[0]`); a partial filter lists what matches, maybe nothing.
      if (sourceLang && targetLang && named.length === 0) {
        throw unknownDictionary(sourceLang, targetLang);
      }
      return c.json({
        dictionaries: named.map(({ sourceLang, targetLang }) => ({
          source_lang: toDeepLGlossaryLanguage(sourceLang),
          target_lang: toDeepLGlossaryLanguage(targetLang),
          entries: toDeepLTsv(glossaries.dictionary(id, sourceLang, targetLang) ?? []),
          entries_format: "tsv" as const,
        })),
      });
    })
    .patch("/:glossary_id", async (c) => {
      const id = c.req.param("glossary_id");
      existing(id);
      const input = fromDeepLGlossaryRequest(await readCompatBody(c), {
        name: false,
        dictionaries: false,
      });
      const dictionaries = toStoredDictionaries(input.dictionaries).map((dictionary, i) => ({
        ...dictionary,
        entries: mergeEntries(
          glossaries.dictionary(id, dictionary.sourceLang, dictionary.targetLang) ?? [],
          dictionary.entries,
          `dictionaries[${i}].entries`,
        ),
      }));
      const record = glossaries.patch(id, { name: input.name, dictionaries });
      return c.json(toDeepLGlossary(record ?? existing(id)));
    })
    .put("/:glossary_id/dictionaries", async (c) => {
      const id = c.req.param("glossary_id");
      existing(id);
      const [dictionary] = toStoredDictionaries([fromDeepLDictionary(await readCompatBody(c))]);
      // The glossary may have been deleted while the body arrived.
      if (!glossaries.patch(id, { dictionaries: [dictionary] })) throw unknownGlossary();
      return c.json(
        toDeepLDictionarySummary(
          dictionary.sourceLang,
          dictionary.targetLang,
          dictionary.entries.length,
        ),
      );
    })
    .delete("/:glossary_id/dictionaries", (c) => {
      const id = c.req.param("glossary_id");
      const record = existing(id);
      const sourceLang = readLanguageFilter(c.req.query("source_lang"), "source_lang");
      const targetLang = readLanguageFilter(c.req.query("target_lang"), "target_lang");
      if (!sourceLang || !targetLang) {
        throw serviceError("invalid_request", "source_lang and target_lang are required", {
          param: sourceLang ? "target_lang" : "source_lang",
        });
      }
      // The dictionary a translation of this pair would use (DeepL's one `zh`), else the 404.
      const [named = { sourceLang, targetLang }] = dictionariesNamed(record.dictionaries, {
        sourceLang,
        targetLang,
      });
      removeDictionary(glossaries, id, {
        sourceLang: named.sourceLang,
        targetLang: named.targetLang,
      });
      return c.body(null, 204);
    })
    .delete("/:glossary_id", (c) => {
      if (!glossaries.delete(c.req.param("glossary_id"))) throw unknownGlossary();
      return c.body(null, 204);
    });
}
