/**
 * How long `tolk infer` takes to refuse a prompt far beyond its context, and how long `/health`
 * waits meanwhile (BENCHMARKS.md, "A prompt beyond the context"): prompts of emoji, which
 * llama.cpp's SentencePiece tokenizer spells byte by byte, against the committed tiny model
 * (context 2,048 tokens). `/health` is asked 30 ms after the prompt is sent.
 *
 * Run: deno task bench:infer-prompt [--emoji 24000,96000,240000]
 */
import { parseArgs } from "node:util";
import { startInferDaemon } from "../tests/support/infer_daemon.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { emoji: { type: "string", default: "24000,96000,240000" } },
});
const daemon = await startInferDaemon();
try {
  for (const count of values.emoji.split(",").map(Number)) {
    const start = performance.now();
    const answer = fetch(`${daemon.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "😀".repeat(count) }] }),
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const asked = performance.now();
    await (await fetch(`${daemon.baseUrl}/health`)).body?.cancel();
    const health = performance.now() - asked;
    const response = await answer;
    const body = await response.json();
    console.log(
      `${count} emoji: ${response.status} in ${
        ((performance.now() - start) / 1000).toFixed(2)
      } s; ` +
        `/health meanwhile ${health.toFixed(0)} ms; "${body.error?.message}"`,
    );
  }
} finally {
  await daemon.stop();
}
