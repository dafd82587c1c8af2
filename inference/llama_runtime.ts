/**
 * The llama.cpp runtime of `tolk infer`, on node-llama-cpp's prebuilt binaries.
 *
 * The model loads in the background ({@link LlamaRuntime.state} goes loading → ready | error).
 * node-llama-cpp loads the binaries, the vocabulary, the chat template and the JSON grammars;
 * the weights and the one decoding context are driven directly (llama_model.ts): every running
 * generation is a sequence of that context and all of them advance in one batched step on a
 * persistent thread pool, computed on a thread of their own (decode_worker.ts), as llama-server's
 * slots do.
 */
import type { Llama, LlamaGrammar } from "node-llama-cpp";
import type { DecodeJob } from "./decode_job.ts";
import {
  type Backend,
  type GenerateOptions,
  GenerationError,
  type GenerationParams,
  type GenerationResult,
  type InferenceRuntime,
  type ModelFileStatus,
  type PreparedGeneration,
  type RuntimeState,
} from "./generation.ts";
import { grammarStopTriggers } from "./grammar_cache.ts";
import { KV_STREAMS_BUDGET } from "./kv_layout.ts";
import { freeModel, type LoadedModel, loadLlama, loadModel } from "./llama_model.ts";
import { inspectModelFile, modelIdFromPath } from "./model_file.ts";
import { withLibraryMessagesHeld } from "./library_messages.ts";
import { renderChat, splitTriggers } from "./chat_template.ts";
import { refuseBeyondContext } from "./prompt_bound.ts";

/** Options of {@link LlamaRuntime.start}. */
export interface LlamaRuntimeOptions {
  modelPath: string;
  /** CPU threads computing each step; default: the machine's physical cores. */
  threads?: number;
  /** Generations that may run at once (sequences of the context). */
  slots: number;
  /** `auto` uses a GPU backend when one is installed; false forces CPU. Default `auto`. */
  gpu?: "auto" | false;
  /** Upper bound on the context size (default 8192; never above the model's trained size). */
  maxContextSize?: number;
  /** Map the model file instead of reading it (default false: see llama_model.ts). */
  mmap?: boolean;
  /**
   * Bytes the slots' KV streams may take together (default {@link KV_STREAMS_BUDGET}); beyond,
   * the slots share one context's cells (inference/kv_layout.ts).
   */
  kvStreamsBudget?: number;
  /** Log lines (stderr by default). */
  log?: (line: string) => void;
  /** The decode worker's module (tests only: one that cannot load). */
  decodeWorkerUrl?: URL;
  /**
   * Milliseconds streamed text may wait to leave with later tokens (default
   * `TEXT_INTERVAL_MS` of decode_worker_protocol.ts; tests pin it to 0 or to an hour to know
   * the chunks).
   */
  textIntervalMs?: number;
}

/** What {@link LlamaRuntime.prepare} hands to {@link LlamaRuntime.generate}. */
interface LlamaPrepared extends PreparedGeneration {
  readonly params: GenerationParams;
  readonly prompt: number[];
  readonly stopTokenSequences: number[][];
  readonly stopTexts: string[];
  readonly grammar?: LlamaGrammar;
}

/** The loaded (or loading) model and its generation slots. */
export class LlamaRuntime implements InferenceRuntime {
  readonly #options:
    & Required<Omit<LlamaRuntimeOptions, "log" | "threads" | "decodeWorkerUrl" | "textIntervalMs">>
    & Pick<LlamaRuntimeOptions, "log" | "threads" | "decodeWorkerUrl" | "textIntervalMs">;
  #state: RuntimeState;
  #loaded?: LoadedModel;
  #disposing?: Promise<void>;
  #stopping = false;
  /** Set by {@link LlamaRuntime.beginShutdown}: a failed load is then not reported. */
  #shutdownBegun = false;
  /** Aborted by {@link LlamaRuntime.interrupt}: ends every running generation. */
  readonly #interrupted = new AbortController();
  #active = 0;
  #onIdle?: () => void;
  /** Runtime shutdown still running after a failed load. */
  #pending?: Promise<void>;
  /** Settles when loading has finished, successfully or not. */
  readonly loaded: Promise<void>;

  private constructor(options: LlamaRuntimeOptions) {
    this.#options = {
      gpu: "auto",
      maxContextSize: 8192,
      mmap: false,
      ...options,
      kvStreamsBudget: options.kvStreamsBudget ?? KV_STREAMS_BUDGET,
    };
    this.#state = {
      phase: "loading",
      modelStatus: "loading",
      modelId: modelIdFromPath(options.modelPath),
      backend: "cpu",
    };
    this.loaded = this.#load().catch((error) => this.#fail("valid", describe(error)));
  }

  /**
   * Starts loading `modelPath` in the background and returns at once.
   *
   * @example
   * ```ts
   * const runtime = LlamaRuntime.start({ modelPath: "model.gguf", slots: 4 });
   * await runtime.loaded;
   * ```
   */
  static start(options: LlamaRuntimeOptions): LlamaRuntime {
    return new LlamaRuntime(options);
  }

  /** The current state (a snapshot). */
  get state(): RuntimeState {
    return { ...this.#state };
  }

  /**
   * Checks a generation before it runs: model ready, prompt + max_tokens within the context,
   * grammar compiled. Its errors come before any stream starts.
   *
   * @throws {GenerationError} `model_not_ready`, `context_overflow`, or `grammar` for a schema
   *   the grammar compiler refuses.
   */
  async prepare(params: GenerationParams): Promise<PreparedGeneration> {
    const loaded = this.#loaded;
    if (this.#stopping) throw new GenerationError({ kind: "model_not_ready", phase: "stopping" });
    if (!loaded || this.#state.phase !== "ready") {
      throw new GenerationError({ kind: "model_not_ready", phase: this.#state.phase });
    }
    const contextSize = this.#state.contextSize!;
    const tokenizer = loaded.vocabulary.tokenizer;
    refuseBeyondContext(
      params,
      (text) => tokenizer(text, false, "trimLeadingSpace").length,
      contextSize,
    );
    const state = renderChat(loaded.wrapper, params.turns);
    const prompt = state.contextText.tokenize(tokenizer);
    const promptTokens = prompt.length;
    const room = contextSize - promptTokens;
    if (room < 1 || (params.maxTokens !== undefined && params.maxTokens > room)) {
      throw new GenerationError({
        kind: "context_overflow",
        promptTokens,
        maxTokens: params.maxTokens,
        maxTokensField: params.maxTokensField,
        contextSize,
      });
    }
    const vocabularySize = loaded.weights.vocabSize;
    const outside = params.logitBias?.find(({ token }) => token >= vocabularySize);
    if (outside) {
      throw new GenerationError({ kind: "logit_bias", token: outside.token, vocabularySize });
    }
    const grammar = await loaded.grammars.grammarFor(params.format).catch((error) => {
      throw new GenerationError({ kind: "grammar", reason: describe(error) }, { cause: error });
    });
    const triggers = splitTriggers(
      [...state.stopGenerationTriggers, ...grammarStopTriggers(grammar)],
      loaded.vocabulary,
    );
    // Capping at the room left means the context never shifts: no silent truncation.
    const prepared: LlamaPrepared = {
      params,
      prompt,
      promptTokens,
      maxTokens: params.maxTokens ?? room,
      grammar,
      ...triggers,
    };
    return prepared;
  }

  /** Runs a prepared generation on a free slot; an aborted signal ends it with `abort`. */
  async generate(
    prepared: PreparedGeneration,
    options: GenerateOptions = {},
  ): Promise<GenerationResult> {
    const loaded = this.#loaded;
    if (!loaded) throw new GenerationError({ kind: "model_not_ready", phase: this.#state.phase });
    this.#active++;
    try {
      const halt = this.#interrupted.signal;
      const signal = options.signal ? AbortSignal.any([options.signal, halt]) : halt;
      const result = await this.#run(loaded, prepared as LlamaPrepared, { ...options, signal });
      // Cut by the daemon, not by the client: the client is told so (an error, not an answer).
      if (result.stopReason === "abort" && halt.aborted && !options.signal?.aborted) {
        throw new GenerationError({ kind: "model_not_ready", phase: "stopping" });
      }
      return result;
    } finally {
      if (--this.#active === 0) this.#onIdle?.();
    }
  }

  async #run(
    loaded: LoadedModel,
    prepared: LlamaPrepared,
    options: GenerateOptions,
  ): Promise<GenerationResult> {
    const { params, promptTokens } = prepared;
    const job: Omit<DecodeJob, "id"> = {
      prompt: prepared.prompt,
      maxTokens: prepared.maxTokens,
      sampler: {
        temperature: params.temperature,
        topP: params.topP,
        // The window is the whole answer: OpenAI's penalties count every token generated so far.
        penalties: {
          frequency: params.frequencyPenalty ?? 0,
          presence: params.presencePenalty ?? 0,
          window: prepared.maxTokens,
        },
        seed: params.seed ?? crypto.getRandomValues(new Uint32Array(1))[0],
        ...(params.logitBias?.length && { logitBias: params.logitBias }),
        grammar: prepared.grammar && {
          text: prepared.grammar.grammar,
          root: prepared.grammar.rootRuleName,
        },
      },
      stopTokenSequences: prepared.stopTokenSequences,
      stopTexts: [
        ...params.stop.map((text) => ({ text, custom: true })),
        ...prepared.stopTexts.map((text) => ({ text, custom: false })),
      ],
      hidden: loaded.hidden,
      logprobs: params.logprobs,
    };
    const result = await loaded.decoder.generate(job, options);
    return {
      text: result.text,
      stopReason: result.stopReason,
      promptTokens,
      completionTokens: result.completionTokens,
      ...(result.logprobs && { logprobs: result.logprobs }),
    };
  }

  /**
   * Refuses new generations and ends the running ones at once, each with a `model_not_ready`
   * `stopping` error: a daemon whose drain time runs out tells its clients why their answers
   * stop instead of cutting their connections.
   */
  interrupt(): void {
    this.#stopping = true;
    this.#interrupted.abort();
  }

  /**
   * The daemon is stopping (SIGINT/SIGTERM): a load that fails from now on fails quietly, with
   * node-llama-cpp's own messages about it. A terminal's Ctrl-C also ends node-llama-cpp's binary
   * test (a child process in the same process group), which fails the load for that alone.
   * Generations are not refused yet: the drain lets the running and queued ones finish.
   */
  beginShutdown(): void {
    this.#shutdownBegun = true;
  }

  /**
   * Refuses new generations, lets running ones finish (at most `drainMs`, default 0), then
   * frees the slots, the model and the runtime. Safe to call more than once: a later call
   * settles with the first (the daemon's exit waits for the one its drain started).
   */
  dispose(options: { drainMs?: number } = {}): Promise<void> {
    this.#disposing ??= this.#dispose(options);
    return this.#disposing;
  }

  async #dispose(options: { drainMs?: number }): Promise<void> {
    this.#stopping = true;
    if (this.#active > 0 && options.drainMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#onIdle = resolve;
        timer = setTimeout(resolve, options.drainMs);
      });
      clearTimeout(timer);
    }
    await this.loaded;
    await this.#pending;
    const loaded = this.#loaded;
    this.#loaded = undefined;
    if (!loaded) return;
    await freeModel(loaded);
  }

  async #load(): Promise<void> {
    const { modelPath, log } = this.#options;
    const write = log ?? ((line: string) => console.error(line));
    const starting = withLibraryMessagesHeld(
      () => loadLlama(this.#options.gpu),
      () => this.#shutdownBegun,
    );
    // A bad file is reported at once, without waiting for the runtime to start.
    const file = await inspectModelFile(modelPath);
    if (!file.ok) {
      this.#pending = starting.then((llama) => llama.dispose(), () => {});
      return this.#fail(file.status, file.reason, write);
    }
    const llama = await starting;
    const backend: Backend = llama.gpu === false ? "cpu" : llama.gpu;
    this.#state = { ...this.#state, backend };
    this.#state = { ...this.#state, modelId: file.modelId };
    let loaded: LoadedModel;
    try {
      loaded = await loadModel(llama, {
        ...this.#options,
        backend,
        threads: this.#threads(llama),
        onDeath: (reason) => this.#workerDied(reason),
      });
    } catch (error) {
      await llama.dispose();
      return this.#fail("invalid", `cannot load ${modelPath}: ${describe(error)}`, write);
    }
    this.#loaded = loaded;
    const contextSize = loaded.context.sequenceCells;
    this.#state = { ...this.#state, phase: "ready", modelStatus: "valid", contextSize };
    const kvCells = loaded.context.streams ? "per slot" : "shared";
    write(
      `model ${file.modelId} ready (${backend}, context ${contextSize} tokens, ` +
        `${this.#options.slots} slots, KV cells ${kvCells}, ${this.#threads(llama)} threads, ` +
        `${megabytes(loaded.weights.hugePages.collapsed)} MB of weights on huge pages)`,
    );
  }

  #threads(llama: Llama): number {
    return this.#options.threads ?? Math.max(1, llama.cpuMathCores);
  }

  /** Generations fail from now on (500); /health says `error` and the log says why. */
  #workerDied(reason: string): void {
    this.#fail(this.#state.modelStatus, `the decode worker stopped: ${reason}`);
  }

  #fail(status: ModelFileStatus, reason: string, write?: (line: string) => void): void {
    const loading = this.#state.phase === "loading";
    this.#state = { ...this.#state, phase: "error", modelStatus: status, reason };
    // Failed while the daemon stops: most likely by the stop itself (beginShutdown).
    if (loading && this.#shutdownBegun) return;
    (write ?? this.#options.log ?? ((line: string) => console.error(line)))(
      `model not loaded: ${reason}`,
    );
  }
}

function megabytes(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}
