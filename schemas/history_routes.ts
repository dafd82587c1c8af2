/**
 * Route-table entries of the history (DECISIONS.md, "History").
 */
import { z } from "zod";
import { type ApiRoute, named } from "./api_route.ts";
import { HistoryClearQuerySchema, HistoryPageSchema, HistoryQuerySchema } from "./history.ts";

const IdParams = z.object({ id: z.string().describe("A history row's id (tr_<uuid>).") });

/** The history routes. */
export const HISTORY_ROUTES: readonly ApiRoute[] = [
  {
    method: "get",
    path: "/v1/history",
    tag: "Data",
    summary: "Stored translations, newest first",
    description: "Requests with sensitive: true are never stored. Page with next_cursor.",
    auth: "token",
    request: { query: HistoryQuerySchema },
    responses: { 200: { description: "One page.", body: named("HistoryPage", HistoryPageSchema) } },
    errors: ["invalid_request", "storage_unavailable"],
    examples: [{ status: 200 }, { query: { limit: "0" }, status: 400 }],
  },
  {
    method: "delete",
    path: "/v1/history",
    tag: "Data",
    summary: "Forget every stored translation",
    description: "Takes no filter: a query parameter is refused, and no row is forgotten.",
    auth: "token",
    request: { query: HistoryClearQuerySchema },
    responses: { 204: { description: "The history is empty." } },
    errors: ["invalid_request", "storage_unavailable"],
    examples: [{ status: 204 }, { query: { q: "x" }, status: 400 }],
  },
  {
    method: "delete",
    path: "/v1/history/{id}",
    tag: "Data",
    summary: "Forget one stored translation",
    auth: "token",
    request: { params: IdParams },
    responses: { 204: { description: "The row is gone." } },
    errors: ["not_found", "storage_unavailable"],
    examples: [{ params: { id: "tr_unknown" }, status: 404 }],
  },
];
