/**
 * How much of a slot's kept tokens a new prompt reuses (the prompt cache).
 *
 * Reusing every shared token is not always cheapest. llama.cpp's flash attention on the CPU reads
 * a prompt in tiles of {@link ATTENTION_TILE} query rows against as many KV cells, and skips a tile
 * only when the causal mask hides all of it. A prompt written from a tile's first cell puts each
 * query tile on the diagonal of one KV tile; written after a kept prefix that ends inside a tile,
 * each query tile straddles two, so attention computes one more tile for every 64 tokens read.
 * That was tolk's "flash attention takes 4–11% more" against llama-server, which reads such a
 * prompt from cell 0: the chat template's first 5 tokens kept, an 1,855-token prompt took 6.7%
 * more attention tiles, and reading the 5 tokens again made the prompt 1.1–2.2% faster
 * (BENCHMARKS.md, "Fourteenth session").
 *
 * Reading the kept tokens after the last tile boundary again costs their share of the weights,
 * about 24·d² flops per token for a model of width d; the extra tiles cost 64 cells of attention
 * per token read, about 64 · 4·d flops. So the ragged end of the prefix is read again when
 * `ragged · 6·d < 64 · tokens to read` (for a 768-wide model and 5 ragged tokens: prompts of more
 * than 360 new tokens), and a short follow-up after a long conversation keeps every cell.
 */

/** Query rows and KV cells of one flash-attention tile in llama.cpp's CPU kernel. */
export const ATTENTION_TILE = 64;

/**
 * Kept tokens to reuse for a prompt of `promptLength` tokens sharing its first `shared` tokens
 * with the cells, for a model `embeddingSize` wide. At least the last prompt token is always
 * read again: its logits pick the first answer token.
 */
export function reusedPrefix(shared: number, promptLength: number, embeddingSize: number): number {
  const keep = Math.max(0, Math.min(shared, promptLength - 1));
  const ragged = keep % ATTENTION_TILE;
  const toRead = promptLength - keep;
  return ragged * 6 * embeddingSize < ATTENTION_TILE * toRead ? keep - ragged : keep;
}
