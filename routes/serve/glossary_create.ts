/**
 * POST /v1/glossaries — creates a glossary from TSV or CSV dictionaries.
 */
import { Hono } from "hono";
import { CreateGlossaryRequestSchema } from "../../schemas/glossary.ts";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { toGlossaryBody, toStoredDictionaries } from "./glossary_wire.ts";
import { validJson } from "./validated_request.ts";

/** The glossary create sub-app. */
export function glossaryCreateRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().post("/", validJson(CreateGlossaryRequestSchema), (c) => {
    const body = c.req.valid("json");
    const dictionaries = toStoredDictionaries(body.dictionaries);
    return c.json(toGlossaryBody(deps.glossaries.create(body.name, dictionaries)), 201);
  });
}
