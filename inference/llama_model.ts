/**
 * Loading and freeing the model `tolk infer` serves: node-llama-cpp's runtime, the vocabulary
 * (tokenizer, chat template, grammars) through it, and the weights, the one decoding context and
 * the decode worker directly ({@link LlamaNative}). The runtime (llama_runtime.ts) decides when;
 * this module knows how, and in which order the parts are freed when one fails.
 */
import {
  type ChatWrapper,
  GeneralChatWrapper,
  getLlama,
  type Llama,
  LlamaLogLevel,
  type LlamaModel,
  resolveChatWrapper,
} from "node-llama-cpp";
import { hiddenSegmentsOf } from "./chat_template.ts";
import { DecodeWorker } from "./decode_worker_client.ts";
import type { Backend } from "./generation.ts";
import { GrammarCache } from "./grammar_cache.ts";
import type { HiddenSegment } from "./hidden_segments.ts";
import { kvBytes, kvStreamsPerSlot } from "./kv_layout.ts";
import { LlamaNative, type NativeModel } from "./llama_native.ts";
import type { NativeContext } from "./native_context.ts";

/** A model ready to generate, with everything that must be freed with it. */
export interface LoadedModel {
  llama: Llama;
  /** Vocabulary only: tokenizer, chat template, grammars. */
  vocabulary: LlamaModel;
  wrapper: ChatWrapper;
  /** The template's thought and comment segments, left out of answers. */
  hidden: HiddenSegment[];
  grammars: GrammarCache;
  weights: NativeModel;
  context: NativeContext;
  decoder: DecodeWorker;
}

/** Options of {@link loadModel}. */
export interface LoadModelOptions {
  modelPath: string;
  backend: Backend;
  /** Generations that may run at once (sequences of the context). */
  slots: number;
  /** CPU threads computing each step. */
  threads: number;
  /** Upper bound on the context size (never above the model's trained size). */
  maxContextSize: number;
  /** Map the model file instead of reading it. */
  mmap: boolean;
  /** Bytes the slots' KV streams may take together; beyond, the slots share one's cells. */
  kvStreamsBudget: number;
  /** The decode worker's module (tests only: one that cannot load). */
  decodeWorkerUrl?: URL;
  /** Milliseconds streamed text may wait to leave with later tokens. */
  textIntervalMs?: number;
  /** Called once if the decode worker dies (decode_worker_client.ts). */
  onDeath: (reason: string) => void;
}

/** Most tokens one step decodes (llama-server's default logical batch). */
const BATCH_SIZE = 2048;

/**
 * node-llama-cpp's runtime as the daemon loads it: its prebuilt binaries only (never a build or a
 * download), errors-only logs, and each context's own thread count honoured exactly.
 */
export function loadLlama(gpu: "auto" | false = "auto"): Promise<Llama> {
  return getLlama({
    gpu,
    build: "never",
    skipDownload: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.error,
    maxThreads: 0,
  });
}

/**
 * The vocabulary through node-llama-cpp, the weights and one context directly. Each slot may
 * fill one generation's context of KV cells: in a stream of its own whose memory is taken as it
 * fills (llama_native.ts) where kv_layout.ts allows it, else in one stream all slots share; so
 * either way an idle daemon holds one context's memory at most, whatever the number of slots.
 * What was loaded before a failure is freed again (but not `llama`, which the caller owns).
 *
 * @throws {Error} when a part of the model cannot be loaded.
 * @example
 * ```ts
 * const loaded = await loadModel(await loadLlama(false), { modelPath, backend: "cpu", ...rest });
 * ```
 */
export async function loadModel(llama: Llama, options: LoadModelOptions): Promise<LoadedModel> {
  const { modelPath, backend, slots } = options;
  const vocabulary = await llama.loadModel({ modelPath, vocabOnly: true });
  try {
    const native = LlamaNative.open(llama.llamaCppRelease.release, llama.gpu);
    const weights = native.loadModel(modelPath, {
      gpuLayers: backend === "cpu" ? 0 : -1,
      // Read into memory, not mapped: a model file truncated or rewritten in place under a
      // mapped daemon kills it with SIGBUS (README, BENCHMARKS.md).
      mmap: options.mmap,
    });
    // A vocabulary-only model knows no hyperparameters: the trained size comes from the file.
    const trained = vocabulary.fileInsights.trainContextSize ?? options.maxContextSize;
    const cells = Math.min(trained, options.maxContextSize);
    let context: NativeContext;
    try {
      context = weights.createContext({
        cells,
        sequences: slots,
        batchSize: Math.min(BATCH_SIZE, cells),
        threads: options.threads,
        streams: kvStreamsPerSlot({
          backend,
          slots,
          bytesPerSlot: kvBytes(vocabulary, cells),
          budget: options.kvStreamsBudget,
        }),
      });
    } catch (error) {
      weights.free();
      throw error;
    }
    let decoder: DecodeWorker;
    try {
      decoder = await DecodeWorker.start({
        native,
        model: weights,
        context,
        sequences: slots,
        url: options.decodeWorkerUrl,
        textIntervalMs: options.textIntervalMs,
        onDeath: options.onDeath,
      });
    } catch (error) {
      context.free();
      weights.free();
      throw error;
    }
    const wrapper = resolveChatWrapper(vocabulary) ?? new GeneralChatWrapper();
    const hidden = hiddenSegmentsOf(wrapper);
    const grammars = new GrammarCache(llama);
    return { llama, vocabulary, wrapper, hidden, grammars, weights, context, decoder };
  } catch (error) {
    await vocabulary.dispose();
    throw error;
  }
}

/**
 * Ends every generation, then frees the context, the weights, the vocabulary and the runtime.
 * A decode worker that died may still be inside a step: its context and weights are left alone.
 */
export async function freeModel(loaded: LoadedModel): Promise<void> {
  if (await loaded.decoder.close()) {
    loaded.context.free();
    loaded.weights.free();
  }
  await loaded.vocabulary.dispose();
  await loaded.llama.dispose();
}
