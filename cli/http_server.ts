/**
 * Serving and graceful shutdown shared by `tolk serve` and `tolk infer`.
 */
import { urlHostname } from "../net/loopback.ts";
import { FlagError } from "./flags.ts";
import { printLine } from "./stdout_lines.ts";

/** How long in-flight work may run on after SIGINT/SIGTERM, unless a caller says otherwise. */
export const DRAIN_TIMEOUT_MS = 10_000;

/** The last part of the drain time, kept for ending what is still running (`onDrainEnding`). */
const DRAIN_END_RESERVE_MS = 1_000;

/** Where {@link bindHttpServer} listens. */
export interface HttpServerAddress {
  hostname: string;
  /** 0 lets the system choose. */
  port: number;
}

/** Options of {@link BoundHttpServer.serve}: what happens around a graceful shutdown. */
export interface HttpServerOptions {
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

/**
 * A listener bound to its address that does not answer yet: requests that arrive wait until
 * {@link BoundHttpServer.serve} hands it the app.
 */
export interface BoundHttpServer {
  /** `http://HOST:PORT` with the real port, as the `listening on` line will print it. */
  url: string;
  /**
   * Prints `listening on URL` and answers with `fetch` from now on.
   *
   * @throws {OutputError} (cli/stdout_lines.ts) when that line cannot be written; the listener
   *   is then closed.
   */
  serve(fetch: Deno.ServeHandler, options?: HttpServerOptions): RunningHttpServer;
  /** Stops listening; for a command that ends before it serves. */
  close(): Promise<void>;
}

/** A port that is taken or an address that cannot be bound is a bad flag value (exit 2). */
function listen(address: HttpServerAddress, fetch: Deno.ServeHandler) {
  try {
    return Deno.serve({
      hostname: address.hostname,
      port: address.port,
      onListen: () => {}, // the listening line is printed by serve(), once there is an app
    }, fetch);
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new FlagError(
        "--port",
        `${address.hostname}:${address.port} is already in use; stop what listens there or ` +
          "pick another port with --port (0 picks a free one)",
      );
    }
    if (error instanceof Deno.errors.NotCapable) {
      // The `tolk` task and the binary grant loopback only (README, Permissions).
      throw new FlagError(
        "--host",
        `listening on ${address.hostname}:${address.port} needs network permission for that ` +
          `address, which \`deno task tolk\` and the binary grant for loopback only: run ` +
          `main.ts with --allow-net=${address.hostname}:${address.port} (README, "Serving another ` +
          `address")`,
      );
    }
    // The rest is the address itself: not on this machine (AddrNotAvailable), a privileged
    // port (PermissionDenied), or a name that does not resolve (a plain Error from the lookup).
    throw new FlagError(
      "--host",
      `cannot listen on ${address.hostname}:${address.port} (${(error as Error).message})`,
    );
  }
}

/**
 * Binds the address before the command reads, creates or says anything else, so a taken port
 * is the one line the user sees (the settings hints and model checks would otherwise come
 * first, and a model would start loading for nothing).
 *
 * @throws {FlagError} when the address cannot be bound.
 * @example
 * ```ts
 * const bound = bindHttpServer({ hostname: "127.0.0.1", port: 8765 });
 * const server = bound.serve(app.fetch);
 * await server.finished;
 * ```
 */
export function bindHttpServer(address: HttpServerAddress): BoundHttpServer {
  const app = Promise.withResolvers<Deno.ServeHandler>();
  const server = listen(address, async (request, info) => (await app.promise)(request, info));
  const addr = server.addr as Deno.NetAddr;
  const url = `http://${urlHostname(addr.hostname)}:${addr.port}`;
  function close() {
    // A request that came before the app would otherwise hold the shutdown open forever.
    app.resolve(() => new Response(null, { status: 503 }));
    return server.shutdown();
  }
  return {
    url,
    serve(fetch, options = {}) {
      try {
        printLine(`listening on ${url}`);
      } catch (error) {
        // No line, no service: a client would find an address its user was never told. The
        // command ends on the error, so the shutdown is not waited for.
        close().catch(() => {});
        throw error;
      }
      app.resolve(fetch);
      return serveWith(server, url, options);
    },
    close,
  };
}

function serveWith(
  server: Deno.HttpServer<Deno.NetAddr>,
  url: string,
  options: HttpServerOptions,
): RunningHttpServer {
  const drainTimeoutMs = options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS;
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

  return { port: server.addr.port, url, finished: server.finished, shutdown };
}
