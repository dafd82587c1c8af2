/**
 * Whether `tolk infer` generates the tokens llama-server generates (BENCHMARKS.md, "Inference
 * daemon against llama-server"): both servers on the bench model, greedy (`temperature: 0`),
 * the same chat prompts; each prompt's answer compared between the servers, and tolk's answer
 * alone compared with the same prompt batched beside three others (one batched decode must not
 * change a generation).
 *
 *   deno task bench:same-tokens [--tokens 32] [--threads 2] [--library-path DIR]
 *
 * `--library-path` puts a folder of other ggml builds first on llama-server's library path:
 * node-llama-cpp's prebuilt `libggml-cpu-zen4.so` and `libggml-base.so` copied there as
 * `libggml-cpu.so.0` and `libggml-base.so.0` (BENCHMARKS, "Eighth check") give llama-server tolk's
 * kernels. Prints the counts and every answer that differs, with the character it parts at.
 */
import { parseArgs } from "node:util";
import { LLAMA_SERVER, startLlamaServer, startTolk, type Target } from "./anchor_servers.ts";
import { ensureBenchModel } from "./bench_model.ts";
import { firstDifference } from "./first_difference.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    tokens: { type: "string", default: "32" },
    threads: { type: "string", default: "2" },
    "library-path": { type: "string" },
  },
});
const TOKENS = Number(values.tokens);
const THREADS = Number(values.threads);

const PROMPTS = [
  "Translate to French: the river runs by the garden.",
  "Hello, how are you?",
  "Write one sentence about the sun.",
  "List three colors.",
  "Ein kurzer Satz auf Deutsch.",
  "東京の天気はどうですか？",
  "Summarise: the quick brown fox jumps over the lazy dog, twice, then sleeps.",
  "¿Dónde está la biblioteca?",
];
const NEIGHBOURS = ["Other prompt one.", "Another, longer prompt about ships and the sea.", "x"];

async function answer(target: Target, content: string): Promise<string> {
  const response = await fetch(`${target.baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      messages: [{ role: "user", content }],
      max_tokens: TOKENS,
      temperature: 0,
      ...target.extra,
    }),
  });
  if (!response.ok) throw new Error(`${target.name}: HTTP ${response.status}`);
  return (await response.json()).choices[0].message.content;
}

try {
  await Deno.stat(LLAMA_SERVER);
} catch {
  console.error(`bench:same-tokens skipped: no llama-server at ${LLAMA_SERVER}`);
  Deno.exit(0);
}
const model = await ensureBenchModel();
const tolk = await startTolk(model, THREADS);
const llama = await startLlamaServer(model, THREADS, 2048, [], values["library-path"]);
const counts = { sameAsLlama: 0, sameBatched: 0 };
try {
  for (const prompt of PROMPTS) {
    const alone = await answer(tolk, prompt);
    const anchor = await answer(llama, prompt);
    if (alone === anchor) counts.sameAsLlama++;
    else {
      console.log(
        `differs from llama-server at character ${firstDifference(alone, anchor)}: ${prompt}`,
      );
    }
    const [batched] = await Promise.all([prompt, ...NEIGHBOURS].map((c) => answer(tolk, c)));
    if (batched === alone) counts.sameBatched++;
    else {console.log(
        `differs when batched at character ${firstDifference(alone, batched)}: ${prompt}`,
      );}
  }
} finally {
  await tolk.stop();
  await llama.stop();
}
console.log(
  `${PROMPTS.length} prompts, ${TOKENS} tokens, greedy, ${THREADS} threads, llama-server on ${
    values["library-path"] ? `the kernels in ${values["library-path"]}` : "its own build"
  }: tolk's answer is llama-server's in ${counts.sameAsLlama}, the same batched beside three ` +
    `other requests in ${counts.sameBatched}`,
);
