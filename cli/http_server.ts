/**
 * Serving and graceful shutdown shared by `tolk serve` and `tolk infer`.
 */
import { urlHostname } from "../net/loopback.ts";
import { FlagError } from "./flags.ts";

/** How long in-flight work may run on after SIGINT/SIGTERM, unless a caller says otherwise. */
export const DRAIN_TIMEOUT_MS = 10_000;

/** The last part of the drain time, kept for ending what is still running (`onDrainEnding`). */
const DRAIN_END_RESERVE_MS = 1_000;

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions {
  hostname: string;
  port: number;
  /**
   * Called once on SIGINT/SIGTERM before the listener stops (answer and close WebSockets with
   * 1001 here).
   */
  onShutdown?: () => void | Promise<void>;
  /**
   * Called once when in-flight requests have not finished a second before the drain time runs
   * out: end them now with an answer the client can read (the process exits at the deadline,
   * cutting any connection still open).
   */
  onDrainEnding?: () => void;
  /** Called once the listener has stopped and in-flight requests have finished. */
  afterDrain?: () => void | Promise<void>;
  /** Upper bound for in-flight requests to finish after a signal (default {@link DRAIN_TIMEOUT_MS}). */
  drainTimeoutMs?: number;
  /** Install SIGINT/SIGTERM handlers (tests serving in-process pass false). */
  handleSignals?: boolean;
}

/** A running server. */
export interface RunningHttpServer {
  /** The bound port (useful when 0 was asked for). */
  port: number;
  /** `http://HOST:PORT` as printed on the `listening on` line. */
  url: string;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
  /** Stops accepting, lets in-flight requests finish (bounded), then resolves. */
  shutdown(): Promise<void>;
}

/** A port that is taken or an address that cannot be bound is a bad flag value (exit 2). */
function listen(fetch: Deno.ServeHandler, options: HttpServerOptions) {
  try {
    return Deno.serve({
      hostname: options.hostname,
      port: options.port,
      onListen: () => {}, // the listening line is printed by the caller, with the real port
    }, fetch);
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new FlagError("--port", `${options.hostname}:${options.port} is already in use`);
    }
    if (error instanceof Deno.errors.NotCapable) {
      // The `tolk` task and the binary grant loopback only (README, Permissions).
      throw new FlagError(
        "--host",
        `listening on ${options.hostname}:${options.port} needs network permission for that ` +
          `address, which \`deno task tolk\` and the binary grant for loopback only: run ` +
          `main.ts with --allow-net=${options.hostname}:${options.port} (README, "Serving another ` +
          `address")`,
      );
    }
    if (
      error instanceof Deno.errors.AddrNotAvailable || error instanceof Deno.errors.PermissionDenied
    ) {
      throw new FlagError(
        "--host",
        `cannot listen on ${options.hostname}:${options.port} (${error.message})`,
      );
    }
    throw error;
  }
}

/**
 * Serves `fetch` and prints `listening on http://HOST:PORT` once connections are accepted.
 *
 * @throws {FlagError} when the address cannot be bound.
 * @example
 * ```ts
 * const server = startHttpServer(app.fetch, { hostname: "127.0.0.1", port: 8765 });
 * await server.finished;
 * ```
 */
export function startHttpServer(
  fetch: Deno.ServeHandler,
  options: HttpServerOptions,
): RunningHttpServer {
  const drainTimeoutMs = options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS;
  const server = listen(fetch, options);
  const addr = server.addr as Deno.NetAddr;
  const url = `http://${urlHostname(addr.hostname)}:${addr.port}`;
  console.log(`listening on ${url}`);

  let stopping: Promise<void> | undefined;
  function shutdown(): Promise<void> {
    stopping ??= (async () => {
      // One bound for the three steps. WebSockets are answered and closed first (onShutdown):
      // Deno's `server.shutdown()` drops upgraded connections without a close frame. Then the
      // listener stops and in-flight requests finish; only then is what they used released
      // (afterDrain: `tolk infer` answered /health 200 while it freed its model, listening on).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, drainTimeoutMs);
      });
      const ending = options.onDrainEnding &&
        setTimeout(options.onDrainEnding, Math.max(0, drainTimeoutMs - DRAIN_END_RESERVE_MS));
      await Promise.race([
        (async () => {
          await options.onShutdown?.();
          await server.shutdown();
          await options.afterDrain?.();
        })(),
        timeout,
      ]);
      clearTimeout(timer);
      clearTimeout(ending);
    })();
    return stopping;
  }

  if (options.handleSignals ?? true) {
    const onSignal = () => {
      // A second signal (a terminal's Ctrl-C reaches `deno task` and the server both) says
      // nothing new.
      if (stopping === undefined) console.error("shutting down");
      shutdown().then(() => Deno.exit(0));
    };
    Deno.addSignalListener("SIGINT", onSignal);
    Deno.addSignalListener("SIGTERM", onSignal);
  }

  return { port: addr.port, url, finished: server.finished, shutdown };
}
