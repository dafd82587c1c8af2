/**
 * A TMX body read off the service's thread (translation/memory/tmx_worker.ts): fast-xml-parser
 * takes about 5 s for a 33 MB memory (200,000 units), and on the service's thread every other
 * request would wait that long.
 *
 * One worker serves the process's imports one at a time. It is kept between small imports (a
 * worker's start costs 0.1 s, and 1.5 s where modules are type-checked as they load, as under
 * `deno test`), and ended after a large one, so that its heap of the parsed document goes with it
 * rather than stay with a long-running service.
 */
import { TmxError, type TmxImport } from "./tmx.ts";

/** What the worker posts back: the import, or why the body is not TMX. */
export type TmxWorkerAnswer = { ok: true; read: TmxImport } | { ok: false; message: string };

/** A body larger than this ends the worker once it is read. */
const KEEP_WORKER_BELOW_BYTES = 1024 * 1024;

let worker: Worker | undefined;
/** The import reading now: imports wait for each other (one message in flight). */
let turn: Promise<unknown> = Promise.resolve();

/**
 * Reads a TMX document's bytes (UTF-8 or UTF-16, translation/memory/tmx_encoding.ts) in the worker.
 *
 * @throws {TmxError} when the bytes are not a TMX document.
 * @throws {Error} when the worker itself fails (a bug, or out of memory).
 */
export function readTmxOffThread(bytes: Uint8Array<ArrayBuffer>): Promise<TmxImport> {
  const read = turn.catch(() => {}).then(() => readInWorker(bytes));
  turn = read;
  return read;
}

function readInWorker(bytes: Uint8Array<ArrayBuffer>): Promise<TmxImport> {
  const large = bytes.byteLength >= KEEP_WORKER_BELOW_BYTES;
  const reader = worker ??= new Worker(new URL("./tmx_worker.ts", import.meta.url), {
    type: "module",
  });
  return new Promise<TmxImport>((resolve, reject) => {
    reader.onmessage = (event: MessageEvent<TmxWorkerAnswer>) => {
      const answer = event.data;
      if (large) endWorker();
      if (answer.ok) resolve(answer.read);
      else reject(new TmxError(answer.message));
    };
    reader.onerror = (event) => {
      event.preventDefault();
      endWorker();
      reject(new Error(`the TMX reader stopped: ${event.message}`));
    };
    reader.postMessage(bytes, [bytes.buffer]);
  });
}

function endWorker(): void {
  worker?.terminate();
  worker = undefined;
}
