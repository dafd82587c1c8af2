/**
 * DELETE /v1/glossaries/{glossary_id}/dictionaries?source_lang=&target_lang= — removes one
 * language pair's dictionary, the others kept (a PATCH with no entries is refused instead).
 */
import { Hono } from "hono";
import { GlossaryDictionaryQuerySchema } from "../../schemas/glossary.ts";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { removeDictionary } from "./glossary_wire.ts";
import { validQuery } from "./validated_request.ts";

/** The glossary dictionary delete sub-app. */
export function glossaryDictionaryDeleteRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().delete(
    "/:glossary_id/dictionaries",
    validQuery(GlossaryDictionaryQuerySchema),
    (c) => {
      const query = c.req.valid("query");
      removeDictionary(deps.glossaries, c.req.param("glossary_id"), {
        sourceLang: query.source_lang,
        targetLang: query.target_lang,
      });
      return c.body(null, 204);
    },
  );
}
