/**
 * DELETE /v1/history — forgets every stored translation.
 */
import { Hono } from "hono";
import type { HistoryStore } from "../../storage/history_store.ts";

/** The history clear sub-app. */
export function historyClearRoute(deps: { history: HistoryStore }) {
  return new Hono().delete("/", (c) => {
    deps.history.clear();
    return c.body(null, 204);
  });
}
