/**
 * POST /v1/memory/import — reads a TMX 1.4 document into the memory, in batches that let other
 * requests in between, all or nothing (MemoryStore.addInBatches).
 */
import { Hono } from "hono";
import { JSON_BODY_ERRORS, serviceError } from "../../errors/translation_errors.ts";
import { requireIdentityCoding } from "../../middleware/content_coding.ts";
import { TMX_MEDIA_TYPES } from "../../schemas/memory.ts";
import type { MemoryStore } from "../../storage/memory_store.ts";
import { replacedVariants } from "../../translation/memory/import_repeats.ts";
import { TmxError } from "../../translation/memory/tmx.ts";
import { readTmxOffThread } from "../../translation/memory/tmx_off_thread.ts";

const TMX_MEDIA_TYPE_SET: ReadonlySet<string> = new Set(TMX_MEDIA_TYPES);

/** The memory import sub-app. */
export function memoryImportRoute(deps: { memory: MemoryStore }) {
  return new Hono().post("/", async (c) => {
    requireIdentityCoding(c.req.header("content-encoding"), JSON_BODY_ERRORS.compressed);
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (!TMX_MEDIA_TYPE_SET.has(mediaType)) {
      throw serviceError(
        "invalid_request",
        `the body must be TMX 1.4 with Content-Type: ${TMX_MEDIA_TYPES[0]}`,
      );
    }
    let parsed;
    try {
      parsed = await readTmxOffThread(new Uint8Array(await c.req.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof TmxError)) throw error;
      throw serviceError("invalid_request", `the body is not TMX: ${error.message}`);
    }
    // Grouped by origin: "user wins" stays intact for imported engine rows.
    const imported = await deps.memory.addInBatches(
      (["user", "engine"] as const).map((origin) => ({
        origin,
        entries: parsed.entries.filter((entry) => entry.origin === origin),
      })),
    );
    return c.json({ imported, skipped: parsed.skipped + replacedVariants(parsed.entries) });
  });
}
