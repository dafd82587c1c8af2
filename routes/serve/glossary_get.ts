/**
 * GET /v1/glossaries/{glossary_id} — one glossary and its dictionaries' sizes.
 */
import { Hono } from "hono";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { existingGlossary, toGlossaryBody } from "./glossary_wire.ts";

/** The glossary get sub-app. */
export function glossaryGetRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().get(
    "/:glossary_id",
    (c) => c.json(toGlossaryBody(existingGlossary(deps.glossaries, c.req.param("glossary_id")))),
  );
}
