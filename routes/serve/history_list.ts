/**
 * GET /v1/history — stored translations, newest first, with cursor paging and text search.
 */
import { Hono } from "hono";
import { serviceError } from "../../errors/translation_errors.ts";
import { type HistoryPageBody, HistoryQuerySchema } from "../../schemas/history.ts";
import type { HistoryStore } from "../../storage/history_store.ts";
import { validQuery } from "./validated_request.ts";

/** The history list sub-app. */
export function historyListRoute(deps: { history: HistoryStore }) {
  return new Hono().get("/", validQuery(HistoryQuerySchema), (c) => {
    const query = c.req.valid("query");
    let page;
    try {
      page = deps.history.list(query);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw serviceError("invalid_request", error.message, { param: "cursor" });
    }
    const body: HistoryPageBody = { data: page.entries, next_cursor: page.nextCursor };
    return c.json(body);
  });
}
