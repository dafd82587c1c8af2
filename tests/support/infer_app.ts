/**
 * Serves the real inference app in-process on 127.0.0.1:0 with a real {@link LlamaRuntime} on
 * the tiny GGUF fixture. Nothing starts at import: every test starts (and stops) its own.
 */
import { createInferenceApp, type InferenceAppDeps } from "../../app/inference_app.ts";
import { inferAppOptions, InferFlagsSchema } from "../../cli/infer_command.ts";
import { LlamaRuntime, type LlamaRuntimeOptions } from "../../inference/llama_runtime.ts";
import { TINY_GGUF } from "./infer_daemon.ts";

/** node-llama-cpp keeps native handles and timers of its own between calls. */
export const NATIVE_SANITIZERS = { sanitizeOps: false, sanitizeResources: false } as const;

/** Options of {@link startInferApp}. */
export interface InferAppOptions {
  /** Runtime options over the defaults (tiny fixture, one thread, two slots). */
  runtime?: Partial<LlamaRuntimeOptions>;
  /** App options over the defaults (the flags' defaults, Host check on, logs collected). */
  app?: Partial<Omit<InferenceAppDeps, "runtime" | "endpoint">>;
  /** Wait until the model is loaded (default true). */
  waitReady?: boolean;
}

/** A running in-process app. */
export interface InferApp {
  /** `http://127.0.0.1:PORT`. */
  baseUrl: string;
  runtime: LlamaRuntime;
  /** Every line the app and the runtime logged. */
  logs: string[];
  /** Stops serving and frees the runtime. */
  stop(): Promise<void>;
}

/**
 * Starts the app; always `await app.stop()` in a `finally`.
 *
 * @example
 * ```ts
 * const app = await startInferApp();
 * try { await fetch(`${app.baseUrl}/health`); } finally { await app.stop(); }
 * ```
 */
export async function startInferApp(options: InferAppOptions = {}): Promise<InferApp> {
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const modelPath = options.runtime?.modelPath ?? TINY_GGUF;
  const runtime = LlamaRuntime.start({ threads: 1, slots: 2, log, ...options.runtime, modelPath });
  let baseUrl = "";
  const app = createInferenceApp({
    ...defaultAppOptions(modelPath),
    modelPath,
    log,
    ...options.app,
    runtime,
    endpoint: () => baseUrl,
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  baseUrl = `http://127.0.0.1:${server.addr.port}`;
  if (options.waitReady ?? true) await runtime.loaded;
  return {
    baseUrl,
    runtime,
    logs,
    stop: async () => {
      await server.shutdown();
      await runtime.dispose();
    },
  };
}

/** What `tolk infer --model PATH` with no other flag gives the app. */
export function defaultAppOptions(modelPath: string) {
  return inferAppOptions(InferFlagsSchema.parse({ model: modelPath }));
}
