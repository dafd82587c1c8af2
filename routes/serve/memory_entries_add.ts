/**
 * POST /v1/memory/entries — adds the user's own pairs (origin `user`, they win over the
 * engine's).
 */
import { Hono } from "hono";
import { checkLanguagePair } from "./language_pair.ts";
import { AddMemoryRequestSchema } from "../../schemas/memory.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";
import { validJson } from "./validated_request.ts";

/** The memory add sub-app. */
export function memoryEntriesAddRoute(deps: { memory: MemoryStore }) {
  return new Hono().post("/", validJson(AddMemoryRequestSchema), (c) => {
    const body = c.req.valid("json");
    checkLanguagePair(body.source_lang, body.target_lang, "target_lang");
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
  });
}
