/**
 * POST /v1/glossaries — creates a glossary from TSV or CSV dictionaries.
 */
import { Hono } from "hono";
import { JSON_BODY_ERRORS } from "../../errors/translation_errors.ts";
import { jsonBody } from "../../middleware/json_body.ts";
import { CreateGlossaryRequestSchema } from "../../schemas/glossary.ts";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { toGlossaryBody, toStoredDictionaries } from "./glossary_wire.ts";

/** The glossary create sub-app. */
export function glossaryCreateRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().post(
    "/",
    jsonBody(CreateGlossaryRequestSchema, JSON_BODY_ERRORS),
    (c) => {
      const body = c.req.valid("json");
      const dictionaries = toStoredDictionaries(body.dictionaries, false);
      return c.json(toGlossaryBody(deps.glossaries.create(body.name, dictionaries)), 201);
    },
  );
}
