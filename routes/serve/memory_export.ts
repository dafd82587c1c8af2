/**
 * GET /v1/memory/export?format=tmx — the whole memory as TMX 1.4.
 */
import { Hono } from "hono";
import { MemoryExportQuerySchema, TMX_MEDIA_TYPES } from "../../schemas/memory.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";
import { toTmx } from "../../translation/memory/tmx.ts";
import { APP_VERSION } from "../../version.ts";
import { validQuery } from "./validated_request.ts";

/** The memory export sub-app. */
export function memoryExportRoute(deps: { memory: MemoryStore }) {
  return new Hono().get("/", validQuery(MemoryExportQuerySchema), (c) => {
    c.header("Content-Type", `${TMX_MEDIA_TYPES[0]}; charset=utf-8`);
    c.header("Content-Disposition", 'attachment; filename="tolk-memory.tmx"');
    return c.body(toTmx(deps.memory.all(), APP_VERSION));
  });
}
