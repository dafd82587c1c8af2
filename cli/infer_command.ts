/**
 * `tolk infer --model PATH …`: the local inference daemon (chat completions on llama.cpp).
 *
 * The server listens at once and the model loads in the background, so `/health` answers 503
 * `loading` until it is ready.
 */
import { z } from "zod";
import { createInferenceApp, INFERENCE_DEFAULTS } from "../app/inference_app.ts";
import { FlagError, integerFlag, parseFlags, portFlag } from "./flags.ts";
import { startHttpServer } from "./http_server.ts";
import { bindHostname, isLoopbackBind } from "../net/loopback.ts";

/**
 * Decode threads per context. Measured on the 2-core box (BENCHMARKS.md): one thread per
 * context decodes faster than two, which stall on handoffs.
 */
export const DEFAULT_THREADS = 1;

/** How long in-flight generations may run on after SIGINT/SIGTERM. */
const DRAIN_MS = 10_000;

/** The flags of `tolk infer`, keyed by flag name. */
export const InferFlagsSchema = z.object({
  model: z.string({ error: "is required (path to a .gguf model file)" })
    .min(1, "is required (path to a .gguf model file)"),
  host: z.string().min(1, "must not be empty").default("127.0.0.1"),
  port: portFlag().default(8080),
  threads: integerFlag(1, 256).default(DEFAULT_THREADS),
  "cors-origin": z.string().refine(isOrigin, "must be an origin like http://localhost:3000")
    .optional(),
  "max-request-bytes": integerFlag(1).default(INFERENCE_DEFAULTS.maxRequestBytes),
  "max-concurrent-requests": integerFlag(1, 64).default(INFERENCE_DEFAULTS.maxConcurrentRequests),
  "requests-per-minute": integerFlag(0).default(INFERENCE_DEFAULTS.requestsPerMinute),
  "expose-model-path": z.boolean().default(false),
});

/** Parsed `tolk infer` flags. */
export type InferFlags = z.infer<typeof InferFlagsSchema>;

/**
 * Runs the daemon until SIGINT/SIGTERM; resolves to the exit code.
 *
 * @throws {FlagError} on a bad flag or value (main.ts prints it, exit 2).
 */
export async function run(args: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(args, InferFlagsSchema, {
    booleans: ["expose-model-path"],
  });
  if (positionals.length) throw new FlagError(positionals[0], "unexpected argument");
  const apiKey = Deno.env.get("SVC_API_KEY") || undefined;
  const loopback = isLoopbackBind(flags.host);
  if (!loopback && !apiKey) {
    console.error(
      `tolk infer: refusing to listen on non-loopback host ${flags.host} without SVC_API_KEY set`,
    );
    return 2;
  }

  // Imported only now: node-llama-cpp's dependencies reset Deno.exitCode on exit (signal-exit),
  // which would turn the flag errors above into exit code 0.
  const { LlamaRuntime } = await import("../inference/llama_runtime.ts");
  const runtime = LlamaRuntime.start({
    modelPath: flags.model,
    threads: flags.threads,
    slots: flags["max-concurrent-requests"],
  });
  let endpoint = "";
  const app = createInferenceApp({
    runtime,
    modelPath: flags.model,
    endpoint: () => endpoint,
    hostCheck: loopback,
    corsOrigin: flags["cors-origin"],
    apiKey,
    maxRequestBytes: flags["max-request-bytes"],
    maxConcurrentRequests: flags["max-concurrent-requests"],
    requestsPerMinute: flags["requests-per-minute"],
    exposeModelPath: flags["expose-model-path"],
  });
  const server = startHttpServer(app.fetch, {
    hostname: bindHostname(flags.host),
    port: flags.port,
    onShutdown: () => runtime.dispose({ drainMs: DRAIN_MS }),
  });
  endpoint = server.url;
  await server.finished;
  await runtime.dispose();
  return 0;
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
  } catch {
    return false;
  }
}
