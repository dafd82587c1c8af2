/**
 * POST /v1/memory/entries — adds the user's own pairs (origin `user`, they win over the
 * engine's).
 */
import { Hono } from "hono";
import { JSON_BODY_ERRORS } from "../../errors/translation_errors.ts";
import { jsonBody } from "../../middleware/json_body.ts";
import { AddMemoryRequestSchema } from "../../schemas/memory.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";

/** The memory add sub-app. */
export function memoryEntriesAddRoute(deps: { memory: MemoryStore }) {
  return new Hono().post(
    "/",
    jsonBody(AddMemoryRequestSchema, JSON_BODY_ERRORS),
    (c) => {
      const body = c.req.valid("json");
      const added = deps.memory.add(
        body.entries.map((entry) => ({
          sourceLang: body.source_lang,
          targetLang: body.target_lang,
          source: entry.source,
          target: entry.target,
        })),
        "user",
      );
      return c.json({ added }, 201);
    },
  );
}
