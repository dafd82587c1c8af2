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
 */
import { BatchDecoder } from "./batch_decoder.ts";
import { CpuContention } from "./cpu_contention.ts";
import type {
  DecodeEvent,
  DecodeWorkerInit,
  FromDecodeWorker,
  ToDecodeWorker,
} from "./decode_worker_protocol.ts";
import { LlamaNative } from "./llama_native.ts";
import { ProcFiles } from "./proc_files.ts";

/** What this module sees of the worker's global scope. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ToDecodeWorker>) => void) | null;
  postMessage(message: FromDecodeWorker): void;
}

const scope = globalThis as unknown as WorkerScope;
const pending: DecodeEvent[] = [];
let decoder: BatchDecoder | undefined;
let received = 0;
let closing = false;
let wake: (() => void) | undefined;

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
      return decoder!.start(message.job);
    case "cancel":
      return decoder!.cancel(message.id);
    case "close":
      closing = true;
      return decoder?.close();
  }
}

function init(options: DecodeWorkerInit): void {
  const native = LlamaNative.reopen(options.addonPath);
  decoder = new BatchDecoder(
    native.adoptModel(options.model),
    native.adoptContext(options.context),
    {
      sequences: options.sequences,
      contention: new CpuContention(new ProcFiles()),
      events: {
        text: (id, text) => pending.push({ kind: "text", id, text }),
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
    decoder.step();
    flush();
  }
  scope.postMessage({ kind: "closed" });
}

function flush(): void {
  if (!pending.length) return;
  scope.postMessage({ kind: "events", events: pending.splice(0) });
}
