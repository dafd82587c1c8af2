/**
 * The last step of a translation: one history row, unless the request is sensitive or the
 * settings turn the history off (`history.enabled`), written with the other rows of its turn
 * (the answer does not wait for it). A failed write never fails the translation; it is logged
 * once (storage/failure_log.ts).
 */
import type { TranslateRequest, TranslateResponse } from "../schemas/translation.ts";
import type { FailureLog } from "../storage/failure_log.ts";
import type { HistoryStore } from "../storage/history_store.ts";

/** Where history goes. */
export interface HistoryDeps {
  history?: HistoryStore;
  /** Whether the settings keep a history now (read per translation, as the token is). */
  historyEnabled?: () => boolean;
  failures?: FailureLog;
}

/** Records a finished, non-sensitive request while the history is on. */
export function recordHistory(
  deps: HistoryDeps,
  request: TranslateRequest,
  response: TranslateResponse,
  client: string | null,
): void {
  const history = deps.history;
  if (!history || request.options?.sensitive === true) return;
  if (deps.historyEnabled?.() === false) return;
  history.recordSoon({
    id: response.id,
    created: response.created,
    client,
    engine: response.engine,
    model: response.model,
    source: response.source,
    target: response.target,
    mode: request.mode ?? "paragraph",
    format: request.format ?? "text",
    texts: request.texts,
    translations: response.results.map((result) => result.text),
  }).then(
    () => deps.failures?.succeeded("history"),
    (error) => deps.failures?.failed("history", error, history.database.path),
  );
}
