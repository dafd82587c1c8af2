/**
 * GET /v1/memory/entries — memory entries, newest first, filtered by pair and text.
 */
import { Hono } from "hono";
import { serviceError } from "../../errors/translation_errors.ts";
import { MemoryEntriesQuerySchema } from "../../schemas/memory.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";
import { validQuery } from "./validated_request.ts";

/** The memory list sub-app. */
export function memoryEntriesListRoute(deps: { memory: MemoryStore }) {
  return new Hono().get("/", validQuery(MemoryEntriesQuerySchema), (c) => {
    const query = c.req.valid("query");
    let page;
    try {
      page = deps.memory.list({
        sourceLang: query.source_lang,
        targetLang: query.target_lang,
        q: query.q,
        limit: query.limit,
        cursor: query.cursor,
      });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw serviceError("invalid_request", error.message, { param: "cursor" });
    }
    return c.json({
      data: page.entries.map((entry) => ({
        id: entry.id,
        source_lang: entry.sourceLang,
        target_lang: entry.targetLang,
        source: entry.source,
        target: entry.target,
        origin: entry.origin,
        created: entry.created,
      })),
      next_cursor: page.nextCursor,
    });
  });
}
