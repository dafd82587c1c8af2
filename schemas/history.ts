/**
 * The history routes' contract (DECISIONS.md, "History").
 */
import { z } from "zod";
import { pageLimit } from "./page_limit.ts";

/** Query of `GET /v1/history`. */
export const HistoryQuerySchema = z.strictObject({
  limit: pageLimit(200, 50)
    .describe("Rows per page, 1..200; default 50."),
  cursor: z.string().min(1).max(64).optional()
    .describe("`next_cursor` of the previous page; absent for the first (newest) page."),
  q: z.string().min(1).max(256).optional()
    .describe("Only rows whose texts or translations contain this text (ASCII case-insensitive)."),
  client: z.string().min(1).max(128).optional()
    .describe("Only rows recorded with this `X-Svc-Client`."),
}).describe("Filter and page of the history.");

/**
 * Query of `DELETE /v1/history`: none. A filter there would read as "forget only these rows"
 * while the route forgets every row, so one is refused rather than ignored.
 */
export const HistoryClearQuerySchema = z.strictObject({})
  .describe("No parameters: every row is forgotten.");

/** One history row. */
export const HistoryEntrySchema = z.strictObject({
  id: z.string().describe("The translation's response id (tr_<uuid>)."),
  created: z.int().min(0).describe("Epoch seconds."),
  client: z.string().nullable().describe("`X-Svc-Client` of the request; null when none."),
  engine: z.string().describe("Engine that served the request (passthrough, memory, …)."),
  model: z.string().describe("Model that served the request."),
  source: z.string().describe("Resolved source language."),
  target: z.string().describe("Target language."),
  mode: z.string().describe("The request's mode (paragraph when it sent none)."),
  format: z.string().describe("The request's format (text when it sent none)."),
  texts: z.array(z.string()).describe("The request's items."),
  translations: z.array(z.string()).describe("The translations, one per item."),
}).describe("One translation request and its result.");

/** Answer of `GET /v1/history`. */
export const HistoryPageSchema = z.strictObject({
  data: z.array(HistoryEntrySchema).describe("Rows, newest first."),
  next_cursor: z.string().nullable().describe("Cursor of the next (older) page; null at the end."),
}).describe("One page of the history.");

/** A validated history query. */
export type HistoryQueryParams = z.infer<typeof HistoryQuerySchema>;
/** A history page body. */
export type HistoryPageBody = z.infer<typeof HistoryPageSchema>;
