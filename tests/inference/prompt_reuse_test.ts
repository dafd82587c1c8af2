import assert from "node:assert/strict";
import { ATTENTION_TILE, chooseSlot, reusedPrefix } from "../../inference/prompt_reuse.ts";

Deno.test("reusedPrefix reads a long prompt from the tile boundary before a ragged kept prefix", () => {
  // The chat template's 5 tokens before an 1,855-token prompt, a 768-wide model (the bench's).
  assert.equal(reusedPrefix(5, 1855, 768), 0);
  assert.equal(reusedPrefix(70, 1855, 768), 64);
  assert.equal(reusedPrefix(2 * ATTENTION_TILE + 3, 2000, 1536), 2 * ATTENTION_TILE);
});

Deno.test("reusedPrefix keeps every shared token when reading its ragged end again costs more", () => {
  // A short follow-up after a long conversation: 20 tokens to read.
  assert.equal(reusedPrefix(1000, 1020, 768), 1000);
  // 5 ragged tokens of a 768-wide model cost as much as the tiles of 360 new ones (5·6·768 = 64·360).
  assert.equal(reusedPrefix(5, 365, 768), 5);
  assert.equal(reusedPrefix(5, 366, 768), 0);
  // A wider model: its tokens' weights cost more, the same prompt keeps the prefix.
  assert.equal(reusedPrefix(5, 1855, 8192), 5);
  // Already on a tile boundary: nothing to read again.
  assert.equal(reusedPrefix(ATTENTION_TILE, 5000, 768), ATTENTION_TILE);
});

Deno.test("reusedPrefix always reads the prompt's last token again", () => {
  assert.equal(reusedPrefix(10, 10, 768), 9);
  assert.equal(reusedPrefix(0, 1, 768), 0);
  // All 100 shared: 99 kept, and its 35 ragged tokens cost more than the one token to read.
  assert.equal(reusedPrefix(200, 100, 64), 99);
});

Deno.test("chooseSlot takes the slot sharing the most when it shares a tenth of the prompt, else the least recently used", () => {
  const prompt = Array.from({ length: 100 }, (_, i) => i);
  const conversation = { index: 0, cached: prompt.slice(0, 40), usedAt: 5 };
  const template = { index: 1, cached: [...prompt.slice(0, 3), 999], usedAt: 2 };
  const oldest = { index: 2, cached: [7, 7], usedAt: 1 };
  const never = { index: 3, cached: [], usedAt: 0 };
  assert.deepEqual(chooseSlot([template, conversation, oldest], prompt), {
    slot: conversation,
    shared: 40,
  });
  assert.deepEqual(chooseSlot([template, oldest, never], prompt), { slot: never, shared: 0 });
  assert.deepEqual(chooseSlot([template, oldest], prompt), { slot: oldest, shared: 0 });
  // 10 of 100 shared is a tenth: that slot.
  const tenth = { index: 4, cached: prompt.slice(0, 10), usedAt: 9 };
  assert.deepEqual(chooseSlot([oldest, tenth], prompt), { slot: tenth, shared: 10 });
});

Deno.test("chooseSlot keeps the generating slots' ids consecutive where it can (a KV stream per slot), the least recently used among those", () => {
  const prompt = Array.from({ length: 100 }, (_, i) => i);
  const usedAt = [1, 4, 2, 3, 0];
  const slots = usedAt.map((used, index) => ({ index, cached: [7], usedAt: used }));
  const [s0, s1, s2, s3, s4] = slots;
  // Slot 1 generating: 0 and 2 keep one run, 0 used less recently (4, the least, would not).
  assert.equal(chooseSlot([s0, s2, s3, s4], prompt, [1]).slot, s0);
  // Slots 1 and 3 generating: 2 joins them into one run.
  assert.equal(chooseSlot([s0, s2, s4], prompt, [1, 3]).slot, s2);
  // Slots 0 and 4 generating: 1 or 3 leave two runs (2 would make three); 3, used less recently.
  assert.equal(chooseSlot([s1, s2, s3], prompt, [0, 4]).slot, s3);
  // Nothing generating (or one shared stream): the least recently used, as before.
  assert.equal(chooseSlot(slots, prompt).slot, s4);
  // A slot sharing a tenth of the prompt wins over keeping the run.
  const shared = { index: 4, cached: prompt.slice(0, 30), usedAt: 0 };
  assert.deepEqual(chooseSlot([s0, s2, shared], prompt, [1]), { slot: shared, shared: 30 });
});
