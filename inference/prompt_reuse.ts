/**
 * Which slot a new prompt goes to, and how much of the slot's kept tokens it reuses (the prompt
 * cache).
 *
 * A slot keeps its last generation's cells. A prompt goes to the free slot whose kept tokens
 * share the longest prefix with it when they share at least {@link MIN_SHARED_SHARE} of it (a
 * follow-up, the same long system prompt); a prompt that shares less (a chat template's first
 * tokens) goes to the least recently used free slot, so it does not take the cells of a
 * conversation that may come back, as llama-server chooses (`--slot-prompt-similarity` 0.1, then
 * the least recently used slot).
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
 *
 * With a KV stream per slot, llama.cpp decodes together only sequences whose ids follow each other
 * (`split_equal`): two generations in slots 0 and 2 take two micro-batches per step, each reading
 * all the weights (30% longer steps on the bench model, BENCHMARKS.md "Fifteenth session"). So the
 * least recently used slot is taken among the free slots that leave the generating ones in the
 * fewest runs of consecutive ids: next to them when one is free. A prompt that shares a tenth
 * still goes where its cells are; reading it again would cost more.
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

/** Least share of a prompt a slot's kept tokens must hold for the prompt to go there. */
export const MIN_SHARED_SHARE = 0.1;

/** A slot as the prompt cache sees it. */
export interface CachingSlot {
  /** Its sequence's id. */
  readonly index: number;
  /** Tokens whose cells the slot holds, from position 0. */
  readonly cached: readonly number[];
  /** When a generation last took it (0: never). */
  readonly usedAt: number;
}

/**
 * The slot of `free` (at least one) that `prompt` goes to, and how many of its first tokens that
 * slot's cells hold. `generating`: the ids of the slots generating, when their sequences decode
 * together only in runs of consecutive ids (a KV stream per slot); else empty.
 */
export function chooseSlot<S extends CachingSlot>(
  free: readonly S[],
  prompt: readonly number[],
  generating: readonly number[] = [],
): { slot: S; shared: number } {
  let best = free[0], bestShared = -1;
  for (const slot of free) {
    const shared = commonPrefix(slot.cached, prompt);
    if (shared > bestShared) [best, bestShared] = [slot, shared];
  }
  if (bestShared >= MIN_SHARED_SHARE * prompt.length) return { slot: best, shared: bestShared };
  const runsWith = (slot: S) => runs([...generating, slot.index]);
  const fewest = Math.min(...free.map(runsWith));
  const oldest = free.filter((slot) => runsWith(slot) === fewest)
    .reduce((older, slot) => slot.usedAt < older.usedAt ? slot : older);
  return { slot: oldest, shared: commonPrefix(oldest.cached, prompt) };
}

/** Runs of consecutive numbers in `ids` (distinct): {0, 1, 3} has two. */
function runs(ids: readonly number[]): number {
  const sorted = ids.toSorted((a, b) => a - b);
  return sorted.filter((id, at) => at === 0 || id !== sorted[at - 1] + 1).length;
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
