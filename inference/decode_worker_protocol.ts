/**
 * The messages between the event loop ({@link DecodeWorker}, decode_worker_client.ts) and the
 * decode worker's thread (decode_worker.ts). Everything here is plain data (structured clone);
 * native objects cross as their addresses.
 */
import type { DecodeJob, DecodeResult } from "./batch_decoder.ts";
import type { NativeModelHandle } from "./llama_native.ts";
import type { NativeContextHandle } from "./native_context.ts";

/** What the worker needs to drive the context the event loop's thread made. */
export interface DecodeWorkerInit {
  /** The addon whose llama.cpp is loaded (the worker opens the same file: the same library). */
  addonPath: string;
  model: NativeModelHandle;
  context: NativeContextHandle;
  sequences: number;
  /**
   * One counter: messages posted to the worker so far. The worker reads it after every step and
   * turns its event loop only when a message waits, so a running decode never yields needlessly.
   */
  mailbox: SharedArrayBuffer;
}

/** From the event loop to the worker. */
export type ToDecodeWorker =
  | { kind: "init"; init: DecodeWorkerInit }
  | { kind: "start"; job: DecodeJob }
  | { kind: "cancel"; id: number }
  | { kind: "close" };

/** One generation's progress, as the decoder reports it. */
export type DecodeEvent =
  | { kind: "text"; id: number; text: string }
  | { kind: "end"; id: number; result: DecodeResult }
  | { kind: "fail"; id: number; reason: string };

/** From the worker to the event loop: `events` at most once per step. */
export type FromDecodeWorker =
  | { kind: "ready" }
  | { kind: "events"; events: DecodeEvent[] }
  | { kind: "closed" };
