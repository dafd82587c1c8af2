/**
 * The inference runtime's own words: what a generation is asked to do, what it produces, what
 * a runtime reports about itself, and how a generation can be refused. No OpenAI types and no
 * imports: the OpenAI adapter translates the wire into these words, and `errors/` maps a
 * {@link GenerationError} to the wire.
 */

/** One turn of the conversation. */
export interface ChatTurn {
  role: "system" | "user" | "assistant";
  text: string;
}

/** How the output is constrained: free text, any JSON value, or JSON matching a schema. */
export type OutputFormat =
  | { kind: "text" }
  | { kind: "json" }
  | { kind: "json_schema"; schema: Record<string, unknown> };

/** Everything the runtime needs to run one generation. */
export interface GenerationParams {
  turns: ChatTurn[];
  /** Most tokens to generate; undefined means "the rest of the context". */
  maxTokens?: number;
  /** The request field that set `maxTokens`, named in a refusal (default `max_tokens`). */
  maxTokensField?: string;
  temperature: number;
  topP: number;
  /** Subtracted from a token's logit for each time the answer already holds it (default 0: off). */
  frequencyPenalty?: number;
  /** Subtracted from a token's logit once the answer holds it (default 0: off). */
  presencePenalty?: number;
  seed?: number;
  /** Added to the logits of these token ids before sampling (OpenAI's `logit_bias`). */
  logitBias?: Array<{ token: number; bias: number }>;
  /** Report each answer token's log probability and this many alternatives (0..20); off if absent. */
  logprobs?: { top: number };
  /** Sequences that end the output (not included in it); never empty strings. */
  stop: string[];
  format: OutputFormat;
}

/**
 * Why a generation ended: the model ended its turn (or a grammar completed), a stop sequence
 * appeared, the token limit was reached, or the caller aborted.
 */
export type StopReason = "endOfTurn" | "stopSequence" | "maxTokens" | "abort";

/** What one finished generation produced. */
export interface GenerationResult {
  text: string;
  stopReason: StopReason;
  promptTokens: number;
  /** Tokens generated; never above the generation's `maxTokens`. */
  completionTokens: number;
  /** One entry per answer token, when {@link GenerationParams.logprobs} asked. */
  logprobs?: TokenLogprob[];
}

/** The log probability of one generated token (natural log) and of its likeliest alternatives. */
export interface TokenLogprob {
  /** The token's text (a part of a character decodes to U+FFFD; `bytes` holds it whole). */
  text: string;
  bytes: number[];
  logprob: number;
  /** The likeliest tokens at this position, likeliest first. */
  top: Array<{ text: string; bytes: number[]; logprob: number }>;
}

/** A generation that passed {@link InferenceRuntime.prepare} (opaque to callers). */
export interface PreparedGeneration {
  readonly promptTokens: number;
  /** The token limit in force: the request's, or the room left in the context. */
  readonly maxTokens: number;
}

/** Callbacks of one generation. */
export interface GenerateOptions {
  /** Aborting stops the generation at once; the result then has `stopReason: "abort"`. */
  signal?: AbortSignal;
  /**
   * Each decoded piece of the answer, in order, with the log probabilities (when asked) of the
   * tokens whose text has gone out with it; the result lists every token's.
   */
  onText?: (text: string, logprobs?: TokenLogprob[]) => void;
}

/** Compute backends a runtime may use. */
export type Backend = "cpu" | "cuda" | "vulkan" | "metal";

/** Validity of the model file: readable model, still loading, not a model, or absent. */
export type ModelFileStatus = "valid" | "loading" | "invalid" | "missing";

/** What a runtime reports about itself. */
export interface RuntimeState {
  phase: "loading" | "ready" | "error";
  modelStatus: ModelFileStatus;
  modelId: string;
  backend: Backend;
  /** Why loading failed (safe to log: names the file and the problem). */
  reason?: string;
  /** Tokens one generation can see (prompt + output), once ready. */
  contextSize?: number;
}

/** What routes need of a runtime (the daemon passes a `LlamaRuntime`). */
export interface InferenceRuntime {
  readonly state: RuntimeState;
  /**
   * Checks a generation before it runs (model ready, prompt within the context, grammar).
   *
   * @throws {GenerationError} when the generation cannot run.
   */
  prepare(params: GenerationParams): Promise<PreparedGeneration>;
  /** Runs a prepared generation; an aborted signal ends it with `abort`. */
  generate(prepared: PreparedGeneration, options?: GenerateOptions): Promise<GenerationResult>;
}

/** Why a generation was refused before it ran, with what a caller needs to fix it. */
export type GenerationFailure =
  | { kind: "model_not_ready"; phase: RuntimeState["phase"] | "stopping" }
  | {
    kind: "context_overflow";
    promptTokens: number;
    /** `promptTokens` is a lower bound: the prompt was refused before it was counted in full. */
    atLeast?: boolean;
    maxTokens?: number;
    /** See {@link GenerationParams.maxTokensField}. */
    maxTokensField?: string;
    contextSize: number;
  }
  | { kind: "grammar"; reason: string }
  | { kind: "logit_bias"; token: number; vocabularySize: number };

/**
 * A refused generation. The message is safe to show to a client: it never holds request text
 * beyond schema keyword paths.
 */
export class GenerationError extends Error {
  override name = "GenerationError";

  constructor(readonly failure: GenerationFailure, options?: ErrorOptions) {
    super(describeFailure(failure), options);
  }
}

function describeFailure(failure: GenerationFailure): string {
  switch (failure.kind) {
    case "model_not_ready":
      if (failure.phase === "stopping") return "the daemon is stopping";
      // A model that failed to load will not load by waiting: /v1/status and the log say why.
      if (failure.phase === "error") {
        return "the model failed to load (see /v1/status); restart the daemon with a valid model";
      }
      return `the model is ${
        failure.phase === "ready" ? "not loaded" : failure.phase
      }; retry shortly`;
    case "context_overflow": {
      const prompt = `${failure.atLeast ? "more than " : ""}${failure.promptTokens} prompt tokens`;
      const asked = failure.maxTokens === undefined
        ? prompt
        : `${prompt} + ${failure.maxTokens} ${failure.maxTokensField ?? "max_tokens"}`;
      return `this model's context is ${failure.contextSize} tokens; the request needs ${asked}`;
    }
    case "grammar":
      return `response_format schema: ${failure.reason}`;
    case "logit_bias":
      return `logit_bias: token ${failure.token} is not in this model's vocabulary of ` +
        `${failure.vocabularySize} tokens (ids 0 to ${failure.vocabularySize - 1})`;
  }
}
