/**
 * The bench-sized model of the inference benchmarks: a 97.2M-parameter random llama in q8_0,
 * generated once into bench/.models/ (git-ignored) by tests/fixtures/make_tiny_gguf.py. Its
 * output rows for control tokens are zero, so generation always runs to `max_tokens`.
 */

const MODELS_DIR = new URL("./.models/", import.meta.url).pathname;
/** Path of the bench model. */
export const BENCH_MODEL = `${MODELS_DIR}bench-100m-q8_0.gguf`;
const GENERATOR = new URL("../tests/fixtures/make_tiny_gguf.py", import.meta.url).pathname;

/**
 * Generates the bench model if missing; resolves to its path.
 *
 * @throws {Error} when the generator (python3 + numpy) fails.
 */
export async function ensureBenchModel(): Promise<string> {
  try {
    await Deno.stat(BENCH_MODEL);
    return BENCH_MODEL;
  } catch {
    await Deno.mkdir(MODELS_DIR, { recursive: true });
  }
  console.error(`generating ${BENCH_MODEL} …`);
  const { code } = await new Deno.Command("python3", {
    args: [GENERATOR, BENCH_MODEL, "--preset", "100m", "--dtype", "q8_0", "--name", "bench-100m"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error("model generation failed");
  return BENCH_MODEL;
}
