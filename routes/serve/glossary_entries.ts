/**
 * GET /v1/glossaries/{glossary_id}/entries — the entries as TSV, per dictionary, optionally
 * one language pair's.
 */
import { Hono } from "hono";
import { GlossaryEntriesQuerySchema } from "../../schemas/glossary.ts";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { formatTsv } from "../../translation/glossary/entries_text.ts";
import { unknownGlossary } from "./glossary_wire.ts";
import { validQuery } from "./validated_request.ts";

/** The glossary entries sub-app. */
export function glossaryEntriesRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().get("/:glossary_id/entries", validQuery(GlossaryEntriesQuerySchema), (c) => {
    const query = c.req.valid("query");
    const dictionaries = deps.glossaries.entries(c.req.param("glossary_id"), {
      sourceLang: query.source_lang,
      targetLang: query.target_lang,
    });
    if (!dictionaries) throw unknownGlossary();
    return c.json({
      dictionaries: dictionaries.map((d) => ({
        source_lang: d.sourceLang,
        target_lang: d.targetLang,
        entries: formatTsv(d.entries),
        entries_format: "tsv",
      })),
    });
  });
}
