/**
 * DELETE /v1/memory/entries/{id} — forgets one memory entry.
 */
import { Hono } from "hono";
import { serviceError } from "../../errors/translation_errors.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";

/** The memory delete sub-app. */
export function memoryEntryDeleteRoute(deps: { memory: MemoryStore }) {
  return new Hono().delete("/:id", (c) => {
    if (!deps.memory.delete(c.req.param("id"))) {
      throw serviceError("not_found", "no memory entry with this id", { param: "id" });
    }
    return c.body(null, 204);
  });
}
