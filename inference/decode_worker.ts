/**
 * The decode worker: a thread of its own that runs {@link BatchDecoder} step after step, each
 * `llama_decode` a synchronous call on this thread, as llama-server's loop thread does. The event
 * loop only hands it requests and cancellations and gets text back, once per step.
 *
 * Before, each step went from the event loop to Deno's FFI thread (`nonblocking`) and back:
 * three thread wake-ups per token (event loop, FFI thread, pool worker). On a 2-vCPU virtual
 * machine one-stream decode gained 1 to 15 points of llama-server's speed in each of 5 paired
 * runs (BENCHMARKS.md, "The remaining gap").
 *
 * Between steps the worker reads the shared mailbox counter: only when a message waits does it
 * turn its event loop to receive it. With nothing to decode it awaits the next message (no
 * spinning, no CPU).
 *
 * Text goes back only for streamed generations, and gathered: a generation's pieces wait for
 * later ones while the next step would still end within the text interval (`TEXT_INTERVAL_MS`,
 * given at init) of the last message, so the event loop wakes (and the client reads) a few times
 * per interval, not once per token. Its first text and every end go at once (time to first token, the result).
 */
import { BatchDecoder } from "./batch_decoder.ts";
import { CpuContention } from "./cpu_contention.ts";
import type {
  DecodeEvent,
  DecodeWorkerInit,
  FromDecodeWorker,
  ToDecodeWorker,
} from "./decode_worker_protocol.ts";
import type { TokenLogprob } from "./generation.ts";
import { LlamaNative } from "./llama_native.ts";
import { ProcFiles } from "./proc_files.ts";

/** What this module sees of the worker's global scope. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ToDecodeWorker>) => void) | null;
  postMessage(message: FromDecodeWorker): void;
}

const scope = globalThis as unknown as WorkerScope;
const pending: DecodeEvent[] = [];
/** Generations whose text goes back: true once some has been sent. */
const streamed = new Map<number, boolean>();
let decoder: BatchDecoder | undefined;
let received = 0;
let closing = false;
let wake: (() => void) | undefined;
let textIntervalMs = 0; // from init
let postedAt = -Infinity;
let lastStepMs = 0;

scope.onmessage = ({ data }) => {
  received++;
  handle(data);
  flush();
  wake?.();
};

function handle(message: ToDecodeWorker): void {
  switch (message.kind) {
    case "init":
      return init(message.init);
    case "start":
      if (message.streamed) streamed.set(message.job.id, false);
      return decoder!.start(message.job);
    case "cancel":
      return decoder!.cancel(message.id);
    case "close":
      closing = true;
      return decoder?.close();
  }
}

function init(options: DecodeWorkerInit): void {
  textIntervalMs = options.textIntervalMs;
  const native = LlamaNative.reopen(options.addonPath);
  decoder = new BatchDecoder(
    native.adoptModel(options.model),
    native.adoptContext(options.context),
    {
      sequences: options.sequences,
      contention: new CpuContention(new ProcFiles()),
      events: {
        text,
        end: (id, result) => pending.push({ kind: "end", id, result }),
        fail: (id, reason) => pending.push({ kind: "fail", id, reason }),
      },
    },
  );
  scope.postMessage({ kind: "ready" });
  run(decoder, new Int32Array(options.mailbox));
}

async function run(decoder: BatchDecoder, mailbox: Int32Array): Promise<void> {
  while (!closing) {
    if (received < Atomics.load(mailbox, 0) || !decoder.busy) {
      await new Promise<void>((resolve) => wake = resolve);
      continue;
    }
    const start = performance.now();
    decoder.step();
    lastStepMs = performance.now() - start;
    flush();
  }
  scope.postMessage({ kind: "closed" });
}

/** A streamed generation's piece, joined to its piece still waiting if there is one. */
function text(id: number, piece: string, logprobs?: TokenLogprob[]): void {
  if (!streamed.has(id)) return;
  const waiting = pending.findLast((event) => event.id === id);
  if (waiting?.kind === "text") {
    waiting.text += piece;
    if (logprobs) waiting.logprobs = [...waiting.logprobs ?? [], ...logprobs];
  } else pending.push({ kind: "text", id, text: piece, ...(logprobs && { logprobs }) });
}

/** Posts the waiting events, unless they are text that may wait for the next step. */
function flush(): void {
  if (!pending.length) return;
  const now = performance.now();
  const urgent = pending.some((event) => event.kind !== "text" || !streamed.get(event.id));
  if (!urgent && now + lastStepMs - postedAt < textIntervalMs) return;
  for (const event of pending) {
    if (event.kind === "text") streamed.set(event.id, true);
    else streamed.delete(event.id);
  }
  postedAt = now;
  scope.postMessage({ kind: "events", events: pending.splice(0) });
}
