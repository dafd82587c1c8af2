/**
 * DELETE /v1/glossaries/{glossary_id} — deletes a glossary with its dictionaries.
 */
import { Hono } from "hono";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { unknownGlossary } from "./glossary_wire.ts";

/** The glossary delete sub-app. */
export function glossaryDeleteRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().delete("/:glossary_id", (c) => {
    if (!deps.glossaries.delete(c.req.param("glossary_id"))) throw unknownGlossary();
    return c.body(null, 204);
  });
}
