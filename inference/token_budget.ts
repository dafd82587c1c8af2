/**
 * The token limit of one generation, enforced by us. node-llama-cpp's own `maxTokens` is
 * overrun when stop sequences are set (tokens held back while a stop sequence might be starting
 * are not counted: `max_tokens: 4` with `stop: ["a","b"]` produced up to 6 tokens), so every
 * piece of output passes through a budget that never lets more than `maxTokens` tokens, or their
 * text, through.
 */

/** Options of {@link TokenBudget}. */
export interface TokenBudgetOptions {
  maxTokens: number;
  /** Text of the first tokens of a piece that is cut at the limit. */
  detokenize: (tokens: readonly number[]) => string;
  /** Called once when the limit is reached (the caller stops the generation). */
  onExhausted: () => void;
}

/**
 * Counts generated tokens and cuts the piece that crosses the limit.
 *
 * @example
 * ```ts
 * const budget = new TokenBudget({ maxTokens: 4, detokenize, onExhausted: () => stop.abort() });
 * const text = budget.take(tokens, text); // undefined once the budget is spent
 * ```
 */
export class TokenBudget {
  readonly #options: TokenBudgetOptions;
  #used = 0;
  #text = "";

  constructor(options: TokenBudgetOptions) {
    if (!Number.isInteger(options.maxTokens) || options.maxTokens < 1) {
      throw new RangeError(`Cannot budget ${options.maxTokens} tokens`);
    }
    this.#options = options;
  }

  /** Tokens let through so far (never above `maxTokens`). */
  get used(): number {
    return this.#used;
  }

  /** The text let through so far. */
  get text(): string {
    return this.#text;
  }

  /** True once `maxTokens` tokens went through. */
  get exhausted(): boolean {
    return this.#used >= this.#options.maxTokens;
  }

  /**
   * Lets a piece through: its text, the text of its first tokens when it crosses the limit, or
   * undefined once the budget is spent.
   */
  take(tokens: readonly number[], text: string): string | undefined {
    if (this.exhausted) return undefined;
    const room = this.#options.maxTokens - this.#used;
    const kept = tokens.length <= room ? text : this.#options.detokenize(tokens.slice(0, room));
    this.#used += Math.min(tokens.length, room);
    this.#text += kept;
    if (this.exhausted) this.#options.onExhausted();
    return kept;
  }
}
