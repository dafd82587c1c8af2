/**
 * Keeps a model's hidden segments (chain of thought such as `<think>…</think>`, as the chat
 * template declares them) out of the answer, on streamed text: a marker split across pieces is
 * held back until it is ruled in or out. It keeps where the segments lay in the text pushed, so
 * the tokens that wrote only hidden text can be left out of the answer's log probabilities.
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
  /** Characters pushed before `#pending`. */
  #consumed = 0;
  /** Hidden spans of the text pushed, markers included, in order; the last may be open. */
  readonly #spans: Array<{ start: number; end: number }> = [];

  constructor(segments: readonly HiddenSegment[]) {
    this.#segments = segments.filter((segment) => segment.close);
    this.#inside = this.#segments.find((segment) => segment.openAtStart);
    if (this.#inside) this.#spans.push({ start: 0, end: Infinity });
  }

  /**
   * Whether characters `start` to `end` (excluded) of the text pushed lie in one hidden span
   * (an empty range: whether its place does). Known once the text after them was pushed.
   */
  hides(start: number, end: number): boolean {
    return this.#spans.some((span) =>
      span.start <= start && (end > start ? end <= span.end : start < span.end)
    );
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
          this.#consume(this.#pending.length - held);
          return visible;
        }
        this.#consume(at + this.#inside.close.length);
        this.#spans.at(-1)!.end = this.#consumed;
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
        const start = this.#consumed + next.at;
        const last = this.#spans.at(-1);
        // A segment opening where one closed is one span: a token may write both markers.
        if (last?.end === start) last.end = Infinity;
        else this.#spans.push({ start, end: Infinity });
        this.#consume(next.at + next.segment.open.length);
        this.#inside = next.segment;
        continue;
      }
      const held = Math.max(
        0,
        ...openable.map((segment) => partialEnd(this.#pending, segment.open)),
      );
      visible += this.#pending.slice(0, this.#pending.length - held);
      this.#consume(this.#pending.length - held);
      return visible;
    }
  }

  #consume(length: number): void {
    this.#pending = this.#pending.slice(length);
    this.#consumed += length;
  }

  /** Text held back at the end that turned out not to open a segment. */
  flush(): string {
    const rest = this.#inside ? "" : this.#pending;
    this.#consume(this.#pending.length);
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
