/**
 * PATCH /v1/glossaries/{glossary_id} — renames, and replaces the dictionaries of the pairs it
 * sends (a dictionary with no entries is a 400; glossary_dictionary_delete.ts removes a pair).
 */
import { Hono } from "hono";
import { PatchGlossaryRequestSchema } from "../../schemas/glossary.ts";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { toGlossaryBody, toStoredDictionaries, unknownGlossary } from "./glossary_wire.ts";
import { validJson } from "./validated_request.ts";

/** The glossary patch sub-app. */
export function glossaryPatchRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().patch("/:glossary_id", validJson(PatchGlossaryRequestSchema), (c) => {
    const body = c.req.valid("json");
    const id = c.req.param("glossary_id");
    if (!deps.glossaries.exists(id)) throw unknownGlossary();
    const dictionaries = body.dictionaries && toStoredDictionaries(body.dictionaries);
    const record = deps.glossaries.patch(id, { name: body.name, dictionaries });
    if (!record) throw unknownGlossary();
    return c.json(toGlossaryBody(record));
  });
}
