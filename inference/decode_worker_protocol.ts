/**
 * The messages between the event loop ({@link DecodeWorker}, decode_worker_client.ts) and the
 * decode worker's thread (decode_worker.ts). Everything here is plain data (structured clone);
 * native objects cross as their addresses.
 */
import type { DecodeJob, DecodeResult } from "./decode_job.ts";
import type { TokenLogprob } from "./generation.ts";
import type { NativeModelHandle } from "./llama_native.ts";
import type { NativeContextHandle } from "./native_context.ts";

/** What the worker needs to drive the context the event loop's thread made. */
export interface DecodeWorkerInit {
  /** The addon whose llama.cpp is loaded (the worker opens the same file: the same library). */
  addonPath: string;
  model: NativeModelHandle;
  context: NativeContextHandle;
  sequences: number;
  /** Milliseconds streamed text may wait to leave with later tokens ({@link TEXT_INTERVAL_MS}). */
  textIntervalMs: number;
  /**
   * One counter: messages posted to the worker so far. The worker reads it after every step and
   * turns its event loop only when a message waits, so a running decode never yields needlessly.
   */
  mailbox: SharedArrayBuffer;
}

/** From the event loop to the worker. */
export type ToDecodeWorker =
  | { kind: "init"; init: DecodeWorkerInit }
  /** `streamed`: the caller takes the text as it comes; otherwise only the end carries it. */
  | { kind: "start"; job: DecodeJob; streamed: boolean }
  | { kind: "cancel"; id: number }
  | { kind: "close" };

/** One generation's progress, as the decoder reports it. */
export type DecodeEvent =
  | { kind: "text"; id: number; text: string; logprobs?: TokenLogprob[] }
  | { kind: "end"; id: number; result: DecodeResult }
  | { kind: "fail"; id: number; reason: string };

/**
 * From the worker to the event loop: `events` at most once per step, and a streamed generation's
 * text at most about every {@link TEXT_INTERVAL_MS} (its first text and every end go at once).
 */
export type FromDecodeWorker =
  | { kind: "ready" }
  | { kind: "events"; events: DecodeEvent[] }
  | { kind: "closed" };

/**
 * How long streamed text may wait in the decode worker to go out with later tokens, in one
 * message (one event-loop wake-up, one SSE chunk per generation). Per token, the event loop's
 * turn (the message, the chunk's JSON, the write) and the client's read took a core from a
 * compute thread when `--threads` equals the cores (BENCHMARKS.md, "Fifth session: why 2 threads
 * trailed").
 */
export const TEXT_INTERVAL_MS = 50;
