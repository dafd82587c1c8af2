/**
 * GET /v1/glossaries — every glossary, oldest first.
 */
import { Hono } from "hono";
import type { GlossaryStore } from "../../storage/glossary_store.ts";
import { toGlossaryBody } from "./glossary_wire.ts";

/** The glossary list sub-app. */
export function glossaryListRoute(deps: { glossaries: GlossaryStore }) {
  return new Hono().get(
    "/",
    (c) => c.json({ glossaries: deps.glossaries.list().map(toGlossaryBody) }),
  );
}
