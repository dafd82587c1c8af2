/**
 * The real decode worker (inference/decode_worker.ts), made to die of an uncaught error on its
 * thread as soon as it has taken its first generation: the daemon's handling of a dead worker
 * is tested with it (`LlamaRuntimeOptions.decodeWorkerUrl`).
 */
import "../../inference/decode_worker.ts";

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null };
const handle = scope.onmessage!;
scope.onmessage = (event) => {
  handle(event);
  if (event.data.kind === "start") throw new Error("injected crash of the decode worker");
};
