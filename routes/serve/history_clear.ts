/**
 * DELETE /v1/history — forgets every stored translation.
 */
import { Hono } from "hono";
import { HistoryClearQuerySchema } from "../../schemas/history.ts";
import type { HistoryStore } from "../../storage/history_store.ts";
import { validQuery } from "./validated_request.ts";

/** The history clear sub-app. */
export function historyClearRoute(deps: { history: HistoryStore }) {
  return new Hono().delete("/", validQuery(HistoryClearQuerySchema), (c) => {
    deps.history.clear();
    return c.body(null, 204);
  });
}
