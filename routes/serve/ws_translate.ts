/**
 * GET /v1/ws/translate — translation over a WebSocket: one reply frame per request frame, in
 * request order; an error frame never closes the connection.
 *
 * Upgrades with `Deno.upgradeWebSocket` (the standard Request → 101 Response upgrade) rather
 * than Hono's helper, because the `bearer` subprotocol must be chosen per request. The handshake
 * is authorized by the same `authorize` as HTTP.
 */
import { Hono } from "hono";
import {
  errorBody,
  logRendered,
  renderTranslationError,
  serviceError,
  validateRequest,
} from "../../errors/translation_errors.ts";
import type { ClientHeaderVariables } from "../../middleware/client_header.ts";
import {
  type ApiAccess,
  authorize,
  isCurrentToken,
  type RefusalReason,
} from "../../middleware/token_auth.ts";
import { TranslateRequestSchema } from "../../schemas/translation.ts";
import { FrameTurns } from "./ws_frame_turns.ts";
import { MAX_FRAMES_IN_FLIGHT, ReplyWindow } from "./ws_reply_window.ts";
import { runTranslation, type TranslationDeps } from "../../translation/run_translation.ts";

/** Largest frame accepted; a larger one closes the connection with 1009 (after earlier replies). */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Close code sent after a frame arrives on a connection whose token was revoked. */
export const CLOSE_TOKEN_REVOKED = 4401;

/**
 * Close code (policy violation) for a client that keeps sending while more than
 * {@link MAX_UNREAD_REPLY_BYTES} of its replies wait unread: the server will not buffer more.
 */
export const CLOSE_REPLIES_UNREAD = 1008;

/** Replies a connection may leave unread (the socket's send buffer) while it keeps sending. */
export const MAX_UNREAD_REPLY_BYTES = 4 * 1024 * 1024;

/**
 * Open sockets, so shutdown can close them with 1001, and what each waits for first: the replies
 * of the frames it accepted (each request frame gets its one response frame).
 */
export type SocketRegistry = Map<WebSocket, () => Promise<void>>;

/**
 * Closes every open socket with 1001 once its accepted frames are answered, waiting at most
 * `withinMs` in all.
 */
export async function closeSockets(sockets: SocketRegistry, withinMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => timer = setTimeout(resolve, withinMs));
  await Promise.all(
    [...sockets].map(async ([socket, settled]) => {
      await Promise.race([settled(), bound]);
      // Waits for the client's close frame too: the listener's shutdown after this drops
      // the connection, and a browser then reports the 1001 as not clean (wasClean false).
      // A client that closed by itself meanwhile has no close to wait for.
      if (socket.readyState === WebSocket.CLOSED) return;
      const closed = new Promise((resolve) => socket.addEventListener("close", resolve));
      socket.close(1001, "service shutting down");
      await Promise.race([closed, bound]);
    }),
  );
  clearTimeout(timer);
}

/** What the WebSocket route needs. */
export interface WsTranslateDeps extends TranslationDeps {
  /** The `api` settings now (read once per handshake and once per frame turn). */
  access: () => ApiAccess;
  /** Builds the `ws_unauthorized` error of a refused handshake. */
  reject: (reason: RefusalReason) => Error;
  sockets: SocketRegistry;
  /** Whether shutdown has begun: frames arriving from then on are refused, not worked on. */
  isShuttingDown: () => boolean;
  /** Logs a line that never holds frame contents. */
  log: (line: string) => void;
}

/** The WebSocket sub-app. */
export function wsTranslateRoute(deps: WsTranslateDeps) {
  // One line for all connections: a turn of the event loop runs a bounded slice of frame work.
  const turns = new FrameTurns();
  const accessThisTurn = oncePerTurn(deps.access, turns);
  return new Hono<{ Variables: ClientHeaderVariables & { requestId: string } }>().get("/", (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw serviceError("invalid_request", "this endpoint needs a WebSocket upgrade request");
    }
    const verdict = authorize(c.req.raw, deps.access(), { websocket: true });
    if (!verdict.allowed) throw deps.reject(verdict.reason);
    const { socket, response } = upgrade(c.req.raw, verdict.subprotocol);
    serveSocket(socket, { ...deps, access: accessThisTurn }, turns, {
      token: verdict.token,
      client: c.get("client") ?? null,
      requestId: c.get("requestId"),
    });
    return response;
  });
}

/**
 * `read` once per frame turn. A `stat` of the settings file per frame was 4 % of a loaded
 * server's main thread (BENCHMARKS.md, WebSocket load); once per turn is as fresh, because every
 * frame started in a turn arrived before the turn began (see {@link FrameTurns.turn}): a frame
 * sent after `tolk token revoke` still sees the revocation.
 */
function oncePerTurn<T>(read: () => T, turns: FrameTurns): () => T {
  let readIn = -1;
  let value: T;
  return () => {
    if (readIn !== turns.turn) {
      value = read();
      readIn = turns.turn;
    }
    return value;
  };
}

/** The WebSocket version the runtime speaks (RFC 6455), named in every refused handshake. */
const WEBSOCKET_VERSION = "13";

/** A `Sec-WebSocket-Key`: 16 bytes in base64 (RFC 6455 §4.1), always 24 characters. */
const HANDSHAKE_KEY = /^[A-Za-z0-9+/]{22}==$/;

/**
 * Upgrades, echoing the chosen subprotocol. `Deno.upgradeWebSocket({protocol})` looks for it in
 * the offered list split on ", " only, so the spec's own `bearer,<token>` (no space) would throw;
 * the offer was already read by `authorize`, and the answer's header is set here instead.
 *
 * @throws a 400 `invalid_request` naming version 13 for a handshake RFC 6455 §4.2.1 refuses.
 */
function upgrade(request: Request, subprotocol: "bearer" | null) {
  const problem = handshakeProblem(request);
  if (problem) throw refusedHandshake(problem);
  let upgraded: ReturnType<typeof Deno.upgradeWebSocket>;
  try {
    upgraded = Deno.upgradeWebSocket(request);
  } catch (error) {
    // A handshake without what RFC 6455 asks for (`Sec-WebSocket-Key`, `Connection: Upgrade`).
    throw refusedHandshake(error instanceof Error ? error.message : String(error));
  }
  if (subprotocol) upgraded.response.headers.set("sec-websocket-protocol", subprotocol);
  return upgraded;
}

/**
 * What is wrong with the version or key of a handshake. The runtime upgrades any version and
 * any key: a client of another version would get a 101 and frames it cannot read.
 */
function handshakeProblem(request: Request): string | undefined {
  const version = request.headers.get("sec-websocket-version");
  if (version !== WEBSOCKET_VERSION) {
    return `Sec-WebSocket-Version is ${version ? `"${version}"` : "missing"}; only 13 is spoken`;
  }
  const key = request.headers.get("sec-websocket-key");
  // A missing key is named by the runtime's own check.
  if (key && !HANDSHAKE_KEY.test(key)) return "Sec-WebSocket-Key is not 16 bytes in base64";
  return undefined;
}

function refusedHandshake(reason: string): Error {
  // RFC 6455 §4.4: a refusal names the versions the server speaks.
  return serviceError("invalid_request", `not a WebSocket handshake: ${reason}`, {
    headers: { "sec-websocket-version": WEBSOCKET_VERSION },
  });
}

interface Connection {
  token: string;
  client: string | null;
  requestId: string;
}

function serveSocket(
  socket: WebSocket,
  deps: WsTranslateDeps,
  turns: FrameTurns,
  connection: Connection,
): void {
  socket.binaryType = "arraybuffer";
  const gone = new AbortController();
  let frames = 0;
  // The settings hand out the same `api` object until the file changes: the token is compared
  // (two digests) once per change, not once per frame.
  let checkedAccess: ApiAccess | undefined;
  const tokenInForce = () => {
    const access = deps.access();
    if (access === checkedAccess) return true;
    if (!isCurrentToken(connection.token, access)) return false;
    checkedAccess = access;
    return true;
  };
  const replies = new ReplyWindow((body) => {
    if (socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(body));
    return true;
  });
  // Every frame over the cap gets this same reply object: refusals cost a counter, not a frame.
  const refusal = errorBody(
    serviceError(
      "engine_unavailable",
      `more than ${MAX_FRAMES_IN_FLIGHT} frames in flight on this connection: ` +
        "this frame was not processed; wait for replies before sending more",
    ),
  );

  const stopping = errorBody(
    serviceError(
      "engine_unavailable",
      "the service is shutting down: this frame was not processed",
    ),
  );
  socket.onopen = () => deps.sockets.set(socket, () => replies.settled());
  socket.onclose = () => {
    deps.sockets.delete(socket);
    gone.abort();
    deps.log(`${connection.requestId} ws closed after ${frames} frames`);
  };
  // Set by a frame over the limit: frames after it are not read, those before it are answered.
  let overLimit = false;
  socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
    frames++;
    if (overLimit) return;
    if (socket.bufferedAmount > MAX_UNREAD_REPLY_BYTES) {
      socket.close(CLOSE_REPLIES_UNREAD, "replies are not being read");
      return;
    }
    const frame = withinLimit(event.data);
    if (frame === undefined) {
      // Each frame accepted before it still gets its one reply, in order, before the close.
      overLimit = true;
      replies.settled().then(() => socket.close(1009, "frame larger than 1 MiB"));
      return;
    }
    if (deps.isShuttingDown()) {
      replies.refuse(stopping);
      return;
    }
    if (!replies.hasRoom) {
      replies.refuse(refusal);
      return;
    }
    // The token is checked in the frame's turn, where the settings are read once per turn.
    let closeReason: string | undefined;
    replies.accept(
      turns.run(() => {
        if (tokenInForce()) return answerFrame(frame, deps, connection, gone.signal);
        const disabled = !deps.access().enabled;
        closeReason = disabled ? "API disabled" : "token revoked";
        return Promise.resolve(renderTranslationError(revocation(deps, disabled)).body);
      }),
      () => {
        if (closeReason) socket.close(CLOSE_TOKEN_REVOKED, closeReason);
      },
    );
  };
}

/**
 * Why the token of an open socket no longer works. A disabled API is said as a new handshake
 * would say it (`tolk api enable`), not as a revoked token, which sends the user to `tolk token`.
 */
function revocation(deps: WsTranslateDeps, disabled: boolean): Error {
  if (disabled) return deps.reject("disabled");
  return serviceError("ws_unauthorized", "the API token was revoked");
}

/**
 * Decodes a binary frame. Fatal, as HTTP bodies are read (`middleware/json_body.ts`): a
 * replacing decoder would put U+FFFD in place of each bad byte and translate the changed text.
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A text frame without its leading U+FEFF. The runtime decodes text frames keeping the mark,
 * which `JSON.parse` refuses; a binary frame's is dropped by {@link UTF8} and an HTTP body's by
 * its decoder, so a client that sends a file read as text gets the same answer on each.
 */
function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The frame, or undefined when it is over the limit. */
function withinLimit(data: string | ArrayBuffer): string | ArrayBuffer | undefined {
  if (typeof data !== "string") return data.byteLength > MAX_FRAME_BYTES ? undefined : data;
  // A UTF-16 unit is at most 3 UTF-8 bytes: only long frames need an exact count.
  if (data.length * 3 <= MAX_FRAME_BYTES) return data;
  return new TextEncoder().encode(data).byteLength > MAX_FRAME_BYTES ? undefined : data;
}

async function answerFrame(
  frame: string | ArrayBuffer,
  deps: WsTranslateDeps,
  connection: Connection,
  signal: AbortSignal,
): Promise<unknown> {
  // Closed while the frame waited for its turn: nobody reads the reply, so no work is done.
  if (signal.aborted) return undefined;
  try {
    let text: string;
    try {
      text = typeof frame === "string" ? withoutByteOrderMark(frame) : UTF8.decode(frame);
    } catch {
      throw serviceError("invalid_request", "the frame is not valid UTF-8");
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw serviceError("invalid_request", "the frame is not valid JSON");
    }
    return await runTranslation(deps, validateRequest(TranslateRequestSchema, json), {
      client: connection.client,
      signal,
      owner: connection,
    });
  } catch (thrown) {
    // Closed while it was translated: the work was stopped on purpose and nobody reads a reply.
    // Logged as HTTP logs its 499: the operator sees the work stopped, not finished unread.
    if (signal.aborted) {
      deps.log(`${connection.requestId} frame stopped: the client closed the socket`);
      return undefined;
    }
    // Logged by the same rule as onError.
    const rendered = renderTranslationError(thrown);
    logRendered(deps.log, {
      requestId: connection.requestId,
      thrown,
      unexpected: rendered.unexpected,
    });
    return rendered.body;
  }
}
