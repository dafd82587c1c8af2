/**
 * The llama.cpp runtime of `tolk infer`, on node-llama-cpp's prebuilt binaries.
 *
 * The model loads in the background ({@link LlamaRuntime.state} goes loading → ready | error);
 * generations run on a {@link SlotPool} of chat slots, either one context each or one sequence
 * each of a shared context (`slotMode`; BENCHMARKS.md says which is faster here).
 */
import {
  type ChatHistoryItem,
  type ChatWrapper,
  getLlama,
  type Llama,
  LlamaChat,
  type LlamaContext,
  type LlamaGrammar,
  LlamaLogLevel,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import {
  type Backend,
  type ChatTurn,
  type GenerateOptions,
  GenerationError,
  type GenerationParams,
  type GenerationResult,
  type InferenceRuntime,
  type ModelFileStatus,
  type OutputFormat,
  type PreparedGeneration,
  type RuntimeState,
  type StopReason,
} from "./generation.ts";
import { inspectModelFile, modelIdFromPath } from "./model_file.ts";
import { SlotPool } from "./slot_pool.ts";
import { TokenBudget } from "./token_budget.ts";

/** How concurrent generations share the model. */
export type SlotMode = "contexts" | "sequences";

/** Options of {@link LlamaRuntime.start}. */
export interface LlamaRuntimeOptions {
  modelPath: string;
  /** CPU threads per context. */
  threads: number;
  /** Generations that may run at once. */
  slots: number;
  /** Default `contexts`: measured faster on this machine (BENCHMARKS.md). */
  slotMode?: SlotMode;
  /** `auto` uses a GPU backend when one is installed; false forces CPU. Default `auto`. */
  gpu?: "auto" | false;
  /** Upper bound on the context size (default 8192; never above the model's trained size). */
  maxContextSize?: number;
  /** Map the model file instead of reading it (default false: see `#load`). */
  mmap?: boolean;
  /** Log lines (stderr by default). */
  log?: (line: string) => void;
}

/** What {@link LlamaRuntime.prepare} hands to {@link LlamaRuntime.generate}. */
interface LlamaPrepared extends PreparedGeneration {
  readonly params: GenerationParams;
  readonly history: ChatHistoryItem[];
  readonly grammar?: LlamaGrammar;
}

interface Slot {
  chat: LlamaChat;
  close(): Promise<void>;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  wrapper: ChatWrapper;
  pool: SlotPool<Slot>;
  shared?: LlamaContext;
}

const GRAMMAR_CACHE_SIZE = 32;

/** The loaded (or loading) model and its generation slots. */
export class LlamaRuntime implements InferenceRuntime {
  readonly #options: Required<Omit<LlamaRuntimeOptions, "log">> & Pick<LlamaRuntimeOptions, "log">;
  readonly #grammars = new Map<string, Promise<LlamaGrammar>>();
  #state: RuntimeState;
  #loaded?: Loaded;
  #disposed = false;
  #stopping = false;
  #active = 0;
  #onIdle?: () => void;
  /** Runtime shutdown still running after a failed load. */
  #pending?: Promise<void>;
  /** Settles when loading has finished, successfully or not. */
  readonly loaded: Promise<void>;

  private constructor(options: LlamaRuntimeOptions) {
    this.#options = {
      slotMode: "contexts",
      gpu: "auto",
      maxContextSize: 8192,
      mmap: false,
      ...options,
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
   * const runtime = LlamaRuntime.start({ modelPath: "model.gguf", threads: 1, slots: 4 });
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
    const history = toHistory(params.turns);
    const contextSize = this.#state.contextSize!;
    const promptTokens = loaded.wrapper.generateContextState({ chatHistory: history })
      .contextText.tokenize(loaded.model.tokenizer).length;
    const room = contextSize - promptTokens;
    if (room < 1 || (params.maxTokens !== undefined && params.maxTokens > room)) {
      throw new GenerationError({
        kind: "context_overflow",
        promptTokens,
        maxTokens: params.maxTokens,
        contextSize,
      });
    }
    const grammar = await this.#grammarFor(loaded.llama, params.format);
    // Capping at the room left means llama.cpp never shifts the context: no silent truncation.
    const prepared: LlamaPrepared = {
      params,
      history,
      promptTokens,
      maxTokens: params.maxTokens ?? room,
      grammar,
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
      return await this.#run(loaded, prepared as LlamaPrepared, options);
    } finally {
      if (--this.#active === 0) this.#onIdle?.();
    }
  }

  async #run(
    loaded: Loaded,
    prepared: LlamaPrepared,
    options: GenerateOptions,
  ): Promise<GenerationResult> {
    const { params, promptTokens } = prepared;
    let lease;
    try {
      lease = await loaded.pool.acquire(options.signal);
    } catch (error) {
      if (options.signal?.aborted) return aborted(promptTokens);
      throw error;
    }
    const cap = new AbortController();
    const budget = new TokenBudget({
      maxTokens: prepared.maxTokens,
      detokenize: (tokens) => loaded.model.detokenize(tokens as Token[]),
      onExhausted: () => cap.abort(),
    });
    const signal = options.signal ? AbortSignal.any([options.signal, cap.signal]) : cap.signal;
    const result = (text: string, stopReason: StopReason): GenerationResult => ({
      text,
      stopReason,
      promptTokens,
      completionTokens: budget.used,
    });
    try {
      const response = await lease.slot.chat.generateResponse(prepared.history, {
        maxTokens: prepared.maxTokens,
        temperature: params.temperature,
        topP: params.topP,
        seed: params.seed,
        customStopTriggers: params.stop.length ? params.stop : undefined,
        grammar: prepared.grammar,
        signal,
        stopOnAbortSignal: true,
        onResponseChunk: (chunk) => {
          if (chunk.type !== undefined) return; // thoughts and other segments are not output
          const text = budget.take(chunk.tokens, chunk.text);
          if (text) options.onText?.(text);
        },
      });
      if (options.signal?.aborted) return result("", "abort");
      if (cap.signal.aborted) return result(budget.text, "maxTokens");
      return result(response.response, stopReasonOf(response.metadata.stopReason));
    } catch (error) {
      if (options.signal?.aborted) return result("", "abort");
      if (cap.signal.aborted) return result(budget.text, "maxTokens");
      throw error;
    } finally {
      lease.release();
    }
  }

  /**
   * Refuses new generations, lets running ones finish (at most `drainMs`, default 0), then
   * frees the slots, the model and the runtime. Safe to call more than once.
   */
  async dispose(options: { drainMs?: number } = {}): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
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
    await loaded.pool.dispose();
    await loaded.shared?.dispose();
    await loaded.model.dispose();
    await loaded.llama.dispose();
  }

  async #load(): Promise<void> {
    const { modelPath, log } = this.#options;
    const write = log ?? ((line: string) => console.error(line));
    const starting = getLlama({
      gpu: this.#options.gpu,
      build: "never",
      skipDownload: true,
      progressLogs: false,
      logLevel: LlamaLogLevel.error,
      maxThreads: 0, // honour each context's own `threads` exactly
    });
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
    let model: LlamaModel;
    try {
      model = await llama.loadModel({
        modelPath,
        gpuLayers: backend === "cpu" ? 0 : "auto",
        // Read into memory, not mapped: a model file truncated or rewritten in place under a
        // mapped daemon kills it with SIGBUS. Same RSS either way (README, BENCHMARKS.md).
        useMmap: this.#options.mmap,
      });
    } catch (error) {
      await llama.dispose();
      return this.#fail("invalid", `cannot load ${modelPath}: ${describe(error)}`, write);
    }
    const { loaded, contextSize } = await this.#makeSlots(llama, model);
    this.#loaded = loaded;
    this.#state = { ...this.#state, phase: "ready", modelStatus: "valid", contextSize };
    write(`model ${file.modelId} ready (${backend}, context ${contextSize} tokens)`);
  }

  async #makeSlots(
    llama: Llama,
    model: LlamaModel,
  ): Promise<{ loaded: Loaded; contextSize: number }> {
    const { threads, slots, slotMode } = this.#options;
    const contextSize = Math.min(model.trainContextSize, this.#options.maxContextSize);
    const shared = slotMode === "sequences"
      ? await model.createContext({ contextSize, threads, sequences: slots })
      : undefined;
    let wrapper: ChatWrapper | undefined;
    let actualSize = 0; // llama.cpp may round the context size up
    const pool = new SlotPool<Slot>({
      size: slots,
      create: async () => {
        const context = shared ?? await model.createContext({ contextSize, threads, sequences: 1 });
        const chat = new LlamaChat({
          contextSequence: context.getSequence(),
          chatWrapper: wrapper,
        });
        wrapper ??= chat.chatWrapper;
        actualSize ||= chat.sequence.contextSize;
        return {
          chat,
          close: async () => {
            chat.dispose({ disposeSequence: true });
            if (!shared) await context.dispose();
          },
        };
      },
      destroy: (slot) => slot.close(),
    });
    await pool.prewarm(1);
    return { loaded: { llama, model, wrapper: wrapper!, pool, shared }, contextSize: actualSize };
  }

  #fail(status: ModelFileStatus, reason: string, write?: (line: string) => void): void {
    this.#state = { ...this.#state, phase: "error", modelStatus: status, reason };
    (write ?? this.#options.log ?? ((line: string) => console.error(line)))(
      `model not loaded: ${reason}`,
    );
  }

  #grammarFor(llama: Llama, format: OutputFormat): Promise<LlamaGrammar | undefined> {
    if (format.kind === "text") return Promise.resolve(undefined);
    const key = format.kind === "json" ? "json" : JSON.stringify(format.schema);
    let grammar = this.#grammars.get(key);
    if (!grammar) {
      grammar = format.kind === "json"
        ? llama.getGrammarFor("json")
        : llama.createGrammarForJsonSchema(format.schema as never) as Promise<LlamaGrammar>;
      grammar.catch(() => this.#grammars.delete(key));
      this.#grammars.set(key, grammar);
      if (this.#grammars.size > GRAMMAR_CACHE_SIZE) {
        this.#grammars.delete(this.#grammars.keys().next().value!);
      }
    }
    return grammar.catch((error) => {
      throw new GenerationError({ kind: "grammar", reason: describe(error) }, { cause: error });
    });
  }
}

function toHistory(turns: readonly ChatTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = turns.map((turn) =>
    turn.role === "assistant"
      ? { type: "model", response: [turn.text] }
      : turn.role === "system"
      ? { type: "system", text: turn.text }
      : { type: "user", text: turn.text }
  );
  // An empty model turn makes the wrapper open a new assistant message to generate into.
  history.push({ type: "model", response: [] });
  return history;
}

/** node-llama-cpp's stop reasons in the runtime's words. */
function stopReasonOf(reason: string): StopReason {
  switch (reason) {
    case "maxTokens":
      return "maxTokens";
    case "customStopTrigger":
      return "stopSequence";
    case "abort":
      return "abort";
    default:
      return "endOfTurn"; // eogToken, stopGenerationTrigger, a completed grammar
  }
}

function aborted(promptTokens: number, completionTokens = 0): GenerationResult {
  return { text: "", stopReason: "abort", promptTokens, completionTokens };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}
