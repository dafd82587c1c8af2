/**
 * `tolk infer --model PATH …`: the local inference daemon (chat completions on llama.cpp).
 *
 * The server listens at once and the model loads in the background, so `/health` answers 503
 * `loading` until it is ready.
 */
import { z } from "zod";
import { createInferenceApp, type InferenceAppDeps } from "../app/inference_app.ts";
import { type CommandUsage, hostFlag, integerFlag, parseCommand, portFlag } from "./flags.ts";
import { environment } from "../settings/environment.ts";
import { pathFlag } from "./config_paths.ts";
import { bindHttpServer, DRAIN_TIMEOUT_MS } from "./http_server.ts";
import { bindHostname, isLoopbackBind } from "../net/loopback.ts";
import { PRESENTABLE_KEY } from "../middleware/token_auth.ts";

/** The flags of `tolk infer`, keyed by flag name: the one statement of each default (DECISIONS.md). */
export const InferFlagsSchema = z.object({
  model: pathFlag("is required (path to a .gguf model file)")
    .describe("the GGUF model file (required)"),
  host: hostFlag().default("127.0.0.1")
    .describe("bind address; a non-loopback host requires SVC_API_KEY"),
  port: portFlag().default(8080).describe("TCP port (0 picks a free one)"),
  // No default here: the runtime asks llama.cpp for the physical cores (BENCHMARKS.md).
  threads: integerFlag(1, 256).optional()
    .describe(
      "CPU threads of each decode step, shared by all generations (default: physical cores)",
    ),
  "cors-origin": z.string().refine(isOrigin, "must be an origin like http://localhost:3000")
    .optional().describe("the one origin that gets CORS headers (default none)"),
  "max-request-bytes": integerFlag(1).default(1_048_576)
    .describe("request body limit (413 request_too_large)"),
  "max-concurrent-requests": integerFlag(1, 64).default(4)
    .describe("generations at once (1..64); beyond: they wait in a queue"),
  // Requests that wait for a generation slot before server_busy (llama-server queues too).
  "max-queued-requests": integerFlag(0, 1024).default(8)
    .describe("requests waiting for a free generation (0..1024); beyond: 503 server_busy"),
  "requests-per-minute": integerFlag(0).default(0)
    .describe("per key, else per client address; 0 is unlimited"),
  "expose-model-path": z.boolean().default(false)
    .describe("show the model path in /v1/status (default <redacted>)"),
});

/** `tolk infer` in the help text. */
export const usage = {
  name: "infer",
  summary: "serve one GGUF model behind an OpenAI-compatible chat API",
  flags: InferFlagsSchema,
  environment: ["SVC_API_KEY"],
} satisfies CommandUsage;

/** Parsed `tolk infer` flags. */
export type InferFlags = z.infer<typeof InferFlagsSchema>;

/**
 * Runs the daemon until SIGINT/SIGTERM; resolves to the exit code.
 *
 * @throws {FlagError} on a bad flag or value (main.ts prints it, exit 2).
 */
export async function run(args: string[]): Promise<number> {
  const { flags } = parseCommand(args, usage, { booleans: ["expose-model-path"] });
  const apiKey = environment().SVC_API_KEY;
  const loopback = isLoopbackBind(flags.host);
  if (apiKey !== undefined && !PRESENTABLE_KEY.test(apiKey)) {
    // Else the daemon would start and refuse every request, however the client sends the key.
    console.error(
      "tolk infer: SVC_API_KEY must be printable ASCII without white space " +
        "(clients send it as `Authorization: Bearer <key>`)",
    );
    return 2;
  }
  if (!loopback && !apiKey) {
    console.error(
      `tolk infer: refusing to listen on non-loopback host ${flags.host} without SVC_API_KEY ` +
        'set; set it to a long random key (README, "Serving another address") or use a ' +
        "loopback --host",
    );
    return 2;
  }

  // Bound before the model starts loading: a taken port ends the command at once.
  const bound = bindHttpServer({ hostname: bindHostname(flags.host), port: flags.port });
  // Imported only now: node-llama-cpp's dependencies reset Deno.exitCode on exit (signal-exit),
  // which would turn the flag errors above into exit code 0.
  const { LlamaRuntime } = await import("../inference/llama_runtime.ts");
  const runtime = LlamaRuntime.start({
    modelPath: flags.model,
    threads: flags.threads,
    slots: flags["max-concurrent-requests"],
  });
  const app = createInferenceApp({
    runtime,
    modelPath: flags.model,
    endpoint: () => bound.url,
    hostCheck: loopback,
    apiKey,
    ...inferAppOptions(flags),
  });
  const server = bound.serve(app.fetch, {
    onShutdown: () => runtime.beginShutdown(),
    onDrainEnding: () => runtime.interrupt(),
    afterDrain: () => runtime.dispose({ drainMs: DRAIN_TIMEOUT_MS }),
  });
  await server.finished;
  await runtime.dispose();
  return 0;
}

/** What the flags decide of the app: its limits and switches. */
export function inferAppOptions(flags: InferFlags) {
  return {
    corsOrigin: flags["cors-origin"],
    maxRequestBytes: flags["max-request-bytes"],
    maxConcurrentRequests: flags["max-concurrent-requests"],
    maxQueuedRequests: flags["max-queued-requests"],
    requestsPerMinute: flags["requests-per-minute"],
    exposeModelPath: flags["expose-model-path"],
  } satisfies Partial<InferenceAppDeps>;
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
  } catch {
    return false;
  }
}
