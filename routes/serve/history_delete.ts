/**
 * DELETE /v1/history/{id} — forgets one stored translation.
 */
import { Hono } from "hono";
import { serviceError } from "../../errors/translation_errors.ts";
import type { HistoryStore } from "../../storage/history_store.ts";

/** The history delete sub-app. */
export function historyDeleteRoute(deps: { history: HistoryStore }) {
  return new Hono().delete("/:id", (c) => {
    if (!deps.history.delete(c.req.param("id"))) {
      throw serviceError("not_found", "no history entry with this id", { param: "id" });
    }
    return c.body(null, 204);
  });
}
