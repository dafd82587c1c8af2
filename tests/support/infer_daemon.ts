/**
 * Starts a real `tolk infer` daemon (`main.ts infer --port 0`) for tests that need a
 * chat-completions server, and waits until its model is loaded.
 */
import { type Status, StatusSchema } from "../../schemas/openai.ts";
import { startTolkServer, type TolkServer } from "./tolk_process.ts";

/** The committed random-weight GGUF fixture (0.15M parameters, ChatML template). */
export const TINY_GGUF = new URL("../fixtures/gguf/tiny.gguf", import.meta.url).pathname;

/** Options of {@link startInferDaemon}. */
export interface InferDaemonOptions {
  /** Model file; default {@link TINY_GGUF}. */
  model?: string;
  /** Extra flags (`--max-concurrent-requests 1`, …). */
  args?: string[];
  /** Extra environment (`SVC_API_KEY`, …). */
  env?: Record<string, string>;
  /** Wait for `/health` 200 (default true); false returns as soon as it listens. */
  waitReady?: boolean;
}

/** A running daemon. */
export interface InferDaemon {
  /** `http://127.0.0.1:PORT` (no `/v1`). */
  baseUrl: string;
  /** Lines the daemon wrote to stderr so far (logs; never request contents). */
  stderr: string[];
  /** The daemon's process id (for /proc figures). */
  pid: number;
  /** Settles when the process exits, however it ends. */
  exited: Promise<Deno.CommandStatus>;
  /** Sends SIGTERM and resolves to the exit code. */
  stop(): Promise<number>;
}

/**
 * Spawns `tolk infer` on 127.0.0.1, port 0.
 *
 * @throws {Error} when the daemon exits early or its model does not load within 60 s.
 * @example
 * ```ts
 * const daemon = await startInferDaemon();
 * try { await fetch(`${daemon.baseUrl}/v1/models`); } finally { await daemon.stop(); }
 * ```
 */
export async function startInferDaemon(options: InferDaemonOptions = {}): Promise<InferDaemon> {
  const server = await startTolkServer(
    ["infer", "--model", options.model ?? TINY_GGUF, "--port", "0", ...(options.args ?? [])],
    options.env,
  );
  const daemon = {
    baseUrl: server.url,
    stderr: server.stderr,
    pid: server.process.pid,
    exited: server.process.status,
    stop: () => server.stop(),
  };
  if (options.waitReady ?? true) {
    try {
      await waitForHealth(server);
    } catch (error) {
      await server.stop();
      throw error;
    }
  }
  return daemon;
}

async function waitForHealth(server: TolkServer): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${server.url}/health`);
    const body = await response.json();
    if (response.status === 200) return;
    if (body.status === "error") {
      throw new Error(`tolk infer failed to load its model: ${server.stderr.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`tolk infer did not become ready: ${server.stderr.join("\n")}`);
}

/** Chat completions a daemon holds: running in a slot and queued for one. */
export type RequestCounts = Status["requests"];

/**
 * Resolves once `reached` is true of the daemon's `/v1/status` request counts: the requests a
 * test sent are in the daemon, not still on their way. `reached` is called before each read with
 * nothing, then with the counts, so a test can take its own figures before the daemon's.
 *
 * @throws {Error} saying `what` and the last counts seen when not reached within 30 s.
 * @example
 * ```ts
 * await waitForRequests(daemon, "one queued", () => (counts) => counts.queued === 1);
 * ```
 */
export async function waitForRequests(
  daemon: InferDaemon,
  what: string,
  reached: () => (counts: RequestCounts) => boolean,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  let seen: RequestCounts | undefined;
  while (Date.now() < deadline) {
    const check = reached();
    const response = await fetch(`${daemon.baseUrl}/v1/status`);
    seen = StatusSchema.parse(await response.json()).requests;
    if (check(seen)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`tolk infer did not hold ${what} within 30 s (last: ${JSON.stringify(seen)})`);
}
