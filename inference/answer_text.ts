/**
 * The visible answer of one generation, token by token: UTF-8 decoded across token boundaries,
 * hidden segments (hidden_segments.ts) left out, stop texts cut off, and any text that may be the
 * start of a stop text held back until it is ruled in or out. Each piece comes with the tokens
 * whose text has gone out with it (or before it, in a piece or a hidden segment): a token that
 * ends inside a character goes with the token that completes it, a token the stop text cut into
 * never does (the end of the generation carries it).
 */
import { type HiddenSegment, HiddenSegmentFilter, partialEnd } from "./hidden_segments.ts";

/** A text that ends the generation; `custom` are the request's own (`stop`). */
export interface StopText {
  text: string;
  custom: boolean;
}

export class AnswerText {
  readonly #stopTexts: readonly StopText[];
  readonly #emit: (piece: string, tokens: { from: number; to: number }) => void;
  readonly #decoder = new TextDecoder("utf-8");
  readonly #hidden: HiddenSegmentFilter;
  #text = "";
  #emitted = 0;
  /** Ended by a stop text: the text is already cut and sent. */
  #cut = false;
  /** Where each token not yet sent ends in the text; the tokens before them were sent. */
  readonly #ends: number[] = [];
  #sentTokens = 0;
  /** Tokens pushed that end inside a character: they end where the character does. */
  #unended = 0;

  /**
   * `emit` receives the answer's pieces in order, each once, with the pushed tokens (by index,
   * `to` excluded) whose text has gone out now.
   */
  constructor(
    options: { stopTexts: readonly StopText[]; hidden: readonly HiddenSegment[] },
    emit: (piece: string, tokens: { from: number; to: number }) => void,
  ) {
    this.#stopTexts = options.stopTexts;
    this.#hidden = new HiddenSegmentFilter(options.hidden);
    this.#emit = emit;
  }

  /** Adds one token's bytes; says which kind of stop text ended the answer, if one did. */
  push(bytes: Uint8Array): "stopSequence" | "endOfTurn" | undefined {
    const decoded = this.#decoder.decode(bytes, { stream: true });
    this.#text += this.#hidden.push(decoded);
    this.#unended++;
    if (decoded || !bytes.length) this.#endTokens();
    let holdBack = 0;
    // The earliest stop text in the new piece ends the answer, whatever its place in the list:
    // one piece (a word token) may hold two, and cutting at the later one would leak the other.
    let first: { at: number; custom: boolean } | undefined;
    for (const stop of this.#stopTexts) {
      const at = this.#text.indexOf(stop.text, Math.max(0, this.#emitted - stop.text.length));
      if (at >= 0 && (!first || at < first.at)) first = { at, custom: stop.custom };
      holdBack = Math.max(holdBack, partialEnd(this.#text, stop.text));
    }
    if (first) {
      this.#text = this.#text.slice(0, first.at);
      this.#cut = true;
      this.#send(this.#text.length);
      return first.custom ? "stopSequence" : "endOfTurn";
    }
    this.#send(this.#text.length - holdBack);
    return undefined;
  }

  /** Sends what was held back (the generation ended otherwise than by a stop text). */
  flush(): void {
    if (this.#cut) return;
    this.#text += this.#hidden.push(this.#decoder.decode()) + this.#hidden.flush();
    this.#endTokens();
    this.#send(this.#text.length);
  }

  /** The answer: all of it after {@link flush}, else what was sent. */
  get text(): string {
    return this.#text;
  }

  /** The part of the answer already sent (what an aborted generation answered). */
  get sent(): string {
    return this.#text.slice(0, this.#emitted);
  }

  #endTokens(): void {
    for (; this.#unended > 0; this.#unended--) this.#ends.push(this.#text.length);
  }

  #send(upTo: number): void {
    if (upTo <= this.#emitted) return;
    const piece = this.#text.slice(this.#emitted, upTo);
    this.#emitted = upTo;
    const from = this.#sentTokens;
    while (this.#ends.length && this.#ends[0] <= upTo) {
      this.#ends.shift();
      this.#sentTokens++;
    }
    this.#emit(piece, { from, to: this.#sentTokens });
  }
}
