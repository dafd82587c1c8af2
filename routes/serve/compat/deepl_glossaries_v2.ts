/**
 * DeepL's first glossary API under `/v1/compat/deepl/v2/glossaries` (what deepl-node's
 * `createGlossary` and Python's `create_glossary` call), on tolk's glossaries: a v2 glossary is
 * one with a single dictionary. Create, list (those with one dictionary), get, entries as TSV,
 * delete; a glossary with several dictionaries is read through the v3 routes. Thin: body →
 * adapter → glossary store → adapter; errors reach DeepL's shape through the DeepL sub-app.
 */
import { Hono } from "hono";
import {
  fromDeepLV2GlossaryRequest,
  isV2Glossary,
  toDeepLTsv,
  toDeepLV2Glossary,
  v2Dictionary,
} from "../../../compat/deepl_glossaries.ts";
import { TSV_MEDIA_TYPE } from "../../../schemas/compat/deepl.ts";
import type { GlossaryStore } from "../../../storage/glossary_store.ts";
import { existingGlossary, toStoredDictionaries, unknownGlossary } from "../glossary_wire.ts";
import { readCompatBody } from "./compat_app.ts";

/** The DeepL v2 glossary sub-app (mounted inside the DeepL one, which renders its errors). */
export function deeplV2GlossariesRoute(deps: { glossaries: GlossaryStore }) {
  const { glossaries } = deps;
  const existing = (id: string) => existingGlossary(glossaries, id);
  return new Hono()
    .post("/", async (c) => {
      const input = fromDeepLV2GlossaryRequest(await readCompatBody(c));
      const record = glossaries.create(
        input.name!,
        toStoredDictionaries(input.dictionaries),
      );
      return c.json(toDeepLV2Glossary(record), 201);
    })
    .get(
      "/",
      (c) => c.json({ glossaries: glossaries.list().filter(isV2Glossary).map(toDeepLV2Glossary) }),
    )
    .get("/:glossary_id", (c) => c.json(toDeepLV2Glossary(existing(c.req.param("glossary_id")))))
    .get("/:glossary_id/entries", (c) => {
      const record = existing(c.req.param("glossary_id"));
      const { sourceLang, targetLang } = v2Dictionary(record);
      c.header("Content-Type", `${TSV_MEDIA_TYPE}; charset=utf-8`);
      return c.body(toDeepLTsv(glossaries.dictionary(record.id, sourceLang, targetLang) ?? []));
    })
    .delete("/:glossary_id", (c) => {
      if (!glossaries.delete(c.req.param("glossary_id"))) throw unknownGlossary();
      return c.body(null, 204);
    });
}
