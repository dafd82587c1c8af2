/**
 * The visible answer of one generation, token by token: UTF-8 decoded across token boundaries,
 * hidden segments (hidden_segments.ts) left out, stop texts cut off, and any text that may be the
 * start of a stop text held back until it is ruled in or out. Each piece comes with the tokens
 * whose text has gone out with it (or before it, in a piece): a token that ends inside a character
 * goes with the token that completes it. A token that wrote only hidden text, or that a stop text
 * cut into, is not part of the answer and never goes out, as llama-server and OpenAI leave it out
 * of their log probabilities.
 */
import { type HiddenSegment, HiddenSegmentFilter, partialEnd } from "./hidden_segments.ts";

/** A text that ends the generation; `custom` are the request's own (`stop`). */
export interface StopText {
  text: string;
  custom: boolean;
}

export class AnswerText {
  readonly #stopTexts: readonly StopText[];
  readonly #emit: (piece: string, tokens: number[]) => void;
  readonly #decoder = new TextDecoder("utf-8");
  readonly #hidden: HiddenSegmentFilter;
  #text = "";
  #emitted = 0;
  /** Ended by a stop text: the text is already cut and sent. */
  #cut = false;
  /**
   * The tokens not yet sent, in order from `#nextToken`: which characters of the decoded text
   * (hidden parts included) each wrote, and where it ends in the answer. Tokens that end inside a
   * character have no end yet: they end where the character does.
   */
  readonly #unsent: Array<{ rawStart: number; rawEnd?: number; end?: number }> = [];
  #nextToken = 0;
  /** Characters decoded so far, hidden ones included. */
  #raw = 0;
  readonly #tokens: number[] = [];

  /**
   * `emit` receives the answer's pieces in order, each once, with the indices of the pushed
   * tokens (counted from 0) of the answer whose text has gone out now.
   */
  constructor(
    options: { stopTexts: readonly StopText[]; hidden: readonly HiddenSegment[] },
    emit: (piece: string, tokens: number[]) => void,
  ) {
    this.#stopTexts = options.stopTexts;
    this.#hidden = new HiddenSegmentFilter(options.hidden);
    this.#emit = emit;
  }

  /** Adds one token's bytes; says which kind of stop text ended the answer, if one did. */
  push(bytes: Uint8Array): "stopSequence" | "endOfTurn" | undefined {
    const decoded = this.#decoder.decode(bytes, { stream: true });
    this.#unsent.push({ rawStart: this.#raw });
    this.#raw += decoded.length;
    this.#text += this.#hidden.push(decoded);
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
    const rest = this.#decoder.decode();
    this.#raw += rest.length;
    this.#text += this.#hidden.push(rest) + this.#hidden.flush();
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

  /** The tokens of the answer sent so far (all of them after {@link flush}), by index. */
  get tokens(): readonly number[] {
    return this.#tokens;
  }

  #endTokens(): void {
    for (const token of this.#unsent) {
      if (token.end !== undefined) continue;
      token.end = this.#text.length;
      token.rawEnd = this.#raw;
    }
  }

  #send(upTo: number): void {
    if (upTo <= this.#emitted) return;
    const piece = this.#text.slice(this.#emitted, upTo);
    this.#emitted = upTo;
    const tokens: number[] = [];
    while (this.#unsent.length && this.#unsent[0].end! <= upTo) {
      const { rawStart, rawEnd } = this.#unsent.shift()!;
      if (!this.#hidden.hides(rawStart, rawEnd!)) tokens.push(this.#nextToken);
      this.#nextToken++;
    }
    this.#tokens.push(...tokens);
    this.#emit(piece, tokens);
  }
}
