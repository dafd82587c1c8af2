/**
 * The two servers of the anchor benches, started on the bench model: `tolk infer` and the
 * `llama-server` built by bench/build_llama_server.sh, each with `SLOTS` concurrent generations.
 */
import { startTolkServer } from "../tests/support/tolk_process.ts";

/** Where bench/build_llama_server.sh puts the anchor. */
export const LLAMA_SERVER = new URL("./.llama-server/build/bin/llama-server", import.meta.url)
  .pathname;
const OWN_LIBRARIES = LLAMA_SERVER.replace(/\/[^/]+$/, "");
/** Generations each server runs at once. */
export const SLOTS = 4;

/** A running server. */
export interface Target {
  name: "tolk" | "llama-server";
  baseUrl: string;
  pid: number;
  stop(): Promise<unknown>;
  /** Extra request fields. */
  extra: Record<string, unknown>;
}

/** `tolk infer --threads <threads> --max-concurrent-requests SLOTS` on `model`, once healthy. */
export async function startTolk(model: string, threads: number): Promise<Target> {
  const server = await startTolkServer([
    "infer",
    "--model",
    model,
    "--port",
    "0",
    "--threads",
    String(threads),
    "--max-concurrent-requests",
    String(SLOTS),
  ]);
  await waitHealthy(server.url, "tolk infer", server.process.status);
  return {
    name: "tolk",
    baseUrl: server.url,
    pid: server.process.pid,
    stop: server.stop,
    extra: {},
  };
}

/**
 * llama-server with `threads` threads, SLOTS slots of `context` cells each, once healthy.
 * `libraryPath` goes first on its library path: a folder holding other builds of
 * `libggml-cpu.so.0` and `libggml-base.so.0` (node-llama-cpp's prebuilt ones, BENCHMARKS "Eighth
 * check") runs the anchor on those kernels.
 */
export async function startLlamaServer(
  model: string,
  threads: number,
  context: number,
  extraArgs: readonly string[] = [],
  libraryPath?: string,
): Promise<Target> {
  const port = freePort();
  const process = new Deno.Command(LLAMA_SERVER, {
    args: [
      ...["-m", model, "--host", "127.0.0.1", "--port", String(port)],
      ...["-t", String(threads), "-tb", String(threads), "-np", String(SLOTS)],
      ...["-c", String(context * SLOTS), "--cache-ram", "0", "--no-webui"],
      ...extraArgs,
    ],
    // The build's RUNPATH names the folder it was built in; the libraries sit beside the binary.
    env: { LD_LIBRARY_PATH: [libraryPath, OWN_LIBRARIES].filter(Boolean).join(":") },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitHealthy(baseUrl, "llama-server", process.status);
  return {
    name: "llama-server",
    baseUrl,
    pid: process.pid,
    stop: async () => {
      process.kill("SIGTERM");
      await process.status;
    },
    extra: { ignore_eos: true },
  };
}

/** A loopback port free right now (the server started next binds it). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Waits until `GET <baseUrl>/health` answers 200, at most two minutes (a model loads first).
 *
 * @throws {Error} when the process exits or the time runs out first.
 */
async function waitHealthy(baseUrl: string, what: string, exited: Promise<unknown>) {
  let done = false;
  exited.then(() => done = true);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !done) {
    try {
      const response = await fetch(`${baseUrl}/health`);
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not become ready`);
}
