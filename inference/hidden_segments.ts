/**
 * Keeps a model's hidden segments (chain of thought such as `<think>…</think>`, as the chat
 * template declares them) out of the answer, on streamed text: a marker split across pieces is
 * held back until it is ruled in or out.
 */

/** One kind of hidden segment. */
export interface HiddenSegment {
  open: string;
  close: string;
  /** The template opens it before the answer starts (only the close marker is generated). */
  openAtStart?: boolean;
}

/** Filters the text of one generation, piece by piece. */
export class HiddenSegmentFilter {
  readonly #segments: readonly HiddenSegment[];
  #inside?: HiddenSegment;
  #pending = "";

  constructor(segments: readonly HiddenSegment[]) {
    this.#segments = segments.filter((segment) => segment.close);
    this.#inside = this.#segments.find((segment) => segment.openAtStart);
  }

  /** The visible text of `piece` (may hold back the start of a marker). */
  push(piece: string): string {
    if (!this.#segments.length) return piece;
    this.#pending += piece;
    let visible = "";
    for (;;) {
      if (this.#inside) {
        const at = this.#pending.indexOf(this.#inside.close);
        if (at < 0) {
          const held = partialEnd(this.#pending, this.#inside.close);
          this.#pending = this.#pending.slice(this.#pending.length - held);
          return visible;
        }
        this.#pending = this.#pending.slice(at + this.#inside.close.length);
        this.#inside = undefined;
        continue;
      }
      const openable = this.#segments.filter((segment) => segment.open);
      const next = openable
        .map((segment) => ({ segment, at: this.#pending.indexOf(segment.open) }))
        .filter((found) => found.at >= 0)
        .sort((a, b) => a.at - b.at)[0];
      if (next) {
        visible += this.#pending.slice(0, next.at);
        this.#pending = this.#pending.slice(next.at + next.segment.open.length);
        this.#inside = next.segment;
        continue;
      }
      const held = Math.max(
        0,
        ...openable.map((segment) => partialEnd(this.#pending, segment.open)),
      );
      visible += this.#pending.slice(0, this.#pending.length - held);
      this.#pending = this.#pending.slice(this.#pending.length - held);
      return visible;
    }
  }

  /** Text held back at the end that turned out not to open a segment. */
  flush(): string {
    const rest = this.#inside ? "" : this.#pending;
    this.#pending = "";
    return rest;
  }
}

/** Length of the longest end of `text` that begins `marker` (a marker that may be starting). */
export function partialEnd(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(marker.slice(0, length))) return length;
  }
  return 0;
}
