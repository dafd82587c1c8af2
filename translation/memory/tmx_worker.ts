/**
 * Reads a TMX document in a worker thread: fast-xml-parser takes about 5 s for a 33 MB memory
 * (200,000 units), and on the service's thread every other request would wait that long.
 * Receives the body's bytes; answers {@link TmxWorkerAnswer}.
 */
/// <reference lib="deno.worker" />
import { fromTmx, TmxError } from "./tmx.ts";
import { tmxText } from "./tmx_encoding.ts";
import type { TmxWorkerAnswer } from "./tmx_off_thread.ts";

self.onmessage = (event: MessageEvent<Uint8Array>) => {
  let answer: TmxWorkerAnswer;
  try {
    answer = { ok: true, read: fromTmx(tmxText(event.data)) };
  } catch (error) {
    if (!(error instanceof TmxError)) throw error;
    answer = { ok: false, message: error.message };
  }
  self.postMessage(answer);
};
