/**
 * History rows for storage tests: distinct, recognisable and valid.
 */
import type { HistoryEntry } from "../../storage/history_store.ts";

/**
 * Row number `i`: id `tr_<i>`, one text `text <i>` translated as `Text <i>`; `overrides` replace
 * fields (the store bench gives longer texts).
 */
export function historyEntry(i: number, overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: `tr_${i}`,
    created: 1_800_000_000 + i,
    client: null,
    engine: "local-llm",
    model: "m",
    source: "en",
    target: "de",
    mode: "message",
    format: "markdown",
    texts: [`text ${i}`],
    translations: [`Text ${i}`],
    ...overrides,
  };
}
