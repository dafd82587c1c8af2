/**
 * The log probabilities a generation reports describe the answer it returns, as llama-server's
 * and OpenAI's do: tokens of a hidden segment (a chain of thought) and the token a stop text cuts
 * into are not in the answer, so they are not listed, streamed or final.
 */
import assert from "node:assert/strict";
import type { DecodeJob, DecodeResult } from "../../inference/decode_job.ts";
import type { TokenLogprob } from "../../inference/generation.ts";
import type { HiddenSegment } from "../../inference/hidden_segments.ts";
import type { StopText } from "../../inference/answer_text.ts";
import { NATIVE_SANITIZERS as NATIVE } from "../support/infer_app.ts";
import { quietDecoder, tinyContext } from "../support/tiny_decoder.ts";

/** A greedy 24-token job asking for logprobs, with `stopTexts` and `hidden` as given. */
function job(
  id: number,
  options: { stopTexts?: StopText[]; hidden?: HiddenSegment[] } = {},
): DecodeJob {
  return {
    id,
    prompt: [5, 17, 42, 99, 7],
    maxTokens: 24,
    sampler: { temperature: 0, topP: 1, seed: 1 },
    stopTokenSequences: [],
    stopTexts: options.stopTexts ?? [],
    ...(options.hidden && { hidden: options.hidden }),
    logprobs: { top: 0 },
  };
}

/** Where each token's text starts in the whole answer, and the answer. */
function layout(tokens: TokenLogprob[]) {
  const starts: number[] = [];
  let text = "";
  for (const token of tokens) {
    starts.push(text.length);
    text += token.text;
  }
  return { starts, text };
}

/** Index of a token (from `from`) whose text is plain, non-empty and first found at its start. */
function firstPlainToken(tokens: TokenLogprob[], from: number, minLength = 1): number {
  const { starts, text } = layout(tokens);
  const at = tokens.findIndex((token, i) =>
    i >= from && token.text.length >= minLength && !token.text.includes("\uFFFD") &&
    text.indexOf(token.text) === starts[i]
  );
  assert.ok(at >= 0, `no plain token from ${from} in ${JSON.stringify(text)}`);
  return at;
}

/**
 * Tokens whose texts as markers make one hidden segment of the answer, from the start of `open`
 * to the end of `close`, with at least one token between them.
 */
function oneSegment(tokens: TokenLogprob[]): { open: number; close: number } {
  const { starts, text } = layout(tokens);
  for (let open = firstPlainToken(tokens, 1); open < tokens.length; open++) {
    const marker = tokens[open].text;
    if (!marker || marker.includes("\uFFFD") || text.indexOf(marker) !== starts[open]) continue;
    for (let close = open + 2; close < tokens.length; close++) {
      const end = tokens[close].text;
      const after = starts[close] + end.length;
      if (!end || text.indexOf(end, starts[open] + marker.length) !== starts[close]) continue;
      if (text.indexOf(marker, after) < 0) return { open, close }; // no second segment
    }
  }
  return assert.fail(`no one-segment markers in ${JSON.stringify(text)}`);
}

const spelled = (tokens: TokenLogprob[] | undefined) => (tokens ?? []).map((token) => token.text);

Deno.test({
  name: "BatchDecoder's logprobs leave out hidden segments and the token a stop text cuts into",
  ...NATIVE,
  async fn(t) {
    const { model, context, close } = await tinyContext({
      cells: 256,
      sequences: 1,
      batchSize: 64,
      threads: 1,
      streams: true,
    });
    const results = new Map<number, DecodeResult>();
    const streamed = new Map<number, TokenLogprob[]>();
    const decoder = quietDecoder(
      { model, context },
      1,
      (id, result) => results.set(id, result),
      (id, _, logprobs) => streamed.set(id, [...streamed.get(id) ?? [], ...logprobs ?? []]),
    );
    const run = (decodeJob: DecodeJob) => {
      decoder.start(decodeJob);
      while (decoder.busy) decoder.step();
      const result = results.get(decodeJob.id)!;
      // Streamed or final, the same tokens, and they spell the returned answer.
      assert.deepEqual(spelled(streamed.get(decodeJob.id)), spelled(result.logprobs));
      return result;
    };
    try {
      const whole = run(job(1)).logprobs!;
      assert.equal(whole.length, 24);
      const { starts, text } = layout(whole);

      await t.step("a hidden segment's tokens, markers included, are left out", () => {
        const { open, close } = oneSegment(whole);
        const hidden = [{ open: whole[open].text, close: whole[close].text }];
        const result = run(job(2, { hidden }));
        const shown = [...whole.slice(0, open), ...whole.slice(close + 1)];
        assert.equal(result.text, shown.map((token) => token.text).join(""));
        assert.deepEqual(spelled(result.logprobs), spelled(shown));
      });

      await t.step("a stop text starting on a token leaves out that token and after", () => {
        const cut = firstPlainToken(whole, 1);
        const result = run(job(3, { stopTexts: [{ text: whole[cut].text, custom: true }] }));
        assert.equal(result.text, text.slice(0, starts[cut]));
        assert.deepEqual(spelled(result.logprobs), spelled(whole.slice(0, cut)));
      });

      await t.step("a stop text starting inside a token leaves that token out", () => {
        const cut = firstPlainToken(whole, 1, 2);
        const stop = whole[cut].text.slice(1);
        assert.equal(text.indexOf(stop), starts[cut] + 1, "the stop text appears earlier");
        const result = run(job(4, { stopTexts: [{ text: stop, custom: true }] }));
        assert.equal(result.text, text.slice(0, starts[cut] + 1));
        assert.deepEqual(spelled(result.logprobs), spelled(whole.slice(0, cut)));
      });
    } finally {
      decoder.close();
      await close();
    }
  },
});
