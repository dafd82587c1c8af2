/**
 * The wire contract of `tolk infer`: chat-completions request, response, stream chunk, models,
 * status, health and error bodies (inference-service.md, DECISIONS.md "Inference service").
 *
 * Known request fields are validated; unknown ones are accepted and ignored (`.loose()`), as the
 * compatible API requires.
 */
import { z } from "zod";

/** A text part of a message's content array. */
export const TextPartSchema = z.object({
  type: z.literal("text").describe('Only "text" parts are supported.'),
  text: z.string().describe("The text of this part."),
}).loose();

/**
 * A refusal part: OpenAI's assistant turns may carry an earlier refusal this way (clients that
 * replay a conversation send it back); the model reads its words as the turn's text.
 */
export const RefusalPartSchema = z.object({
  type: z.literal("refusal"),
  refusal: z.string().describe("The words of the refusal."),
}).loose();

/** One chat message. */
export const ChatMessageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"])
    .describe(
      'Who wrote the message; "developer" is a system message, "tool" and "function" (the ' +
        "deprecated answer to a function_call) user messages.",
    ),
  content: z.union([
    z.string(),
    z.array(z.discriminatedUnion("type", [TextPartSchema, RefusalPartSchema])),
    z.null(),
  ], {
    // The union's own message ("Invalid input") does not say that an image part is the problem.
    error: 'must be a string or an array of {"type":"text","text":…} parts (or "refusal" ' +
      "parts): image, audio and file parts are not supported",
  })
    .optional()
    .describe(
      "The text, or an array of text or refusal parts (one line each); an assistant turn (one " +
        "carrying tool_calls) may leave it out or send null.",
    ),
}).loose().superRefine((message, ctx) => {
  // OpenAI's rule: content is required "unless tool_calls or function_call is specified", so
  // agent loops send an assistant turn without it (or with null); any other turn without text
  // is a mistake, and null is no text either.
  if (message.content == null && message.role !== "assistant") {
    ctx.addIssue({
      code: "custom",
      path: ["content"],
      message: `${message.content === null ? "null" : "missing"}; only an assistant message ` +
        "(one with tool_calls) may leave it out or send null",
    });
  }
});

/** `response_format`: free text, any JSON object, or JSON matching a schema (grammar-enforced). */
export const ResponseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }).loose(),
  z.object({ type: z.literal("json_object") }).loose(),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({
      name: z.string().optional().describe("Name of the schema (not used)."),
      schema: z.union([z.record(z.string(), z.unknown()), z.boolean()]).optional()
        .describe(
          "The JSON Schema the output must match; absent means any JSON object. At most 64 " +
            "levels of nested objects/arrays, 4,096 JSON values, 1,000 enum/const values " +
            "and 32,768 characters of keys and strings.",
        ),
      strict: z.boolean().nullish().describe("Accepted; output always follows the schema."),
    }).loose(),
  }).loose(),
]).describe("Output format; json_object and json_schema are enforced by a grammar.");

const maxTokens = z.number().int().min(1).nullish();
const penalty = z.number().min(-2).max(2).nullish();
const noToolCalls = z.enum(["none", "auto"], {
  error: 'tool calls are not supported: only "none" or "auto" (answered with text)',
}).nullish();

/** POST /v1/chat/completions request body. */
export const ChatCompletionRequestSchema = z.object({
  model: z.string().optional().describe("Model id; the daemon serves one model whatever is sent."),
  messages: z.array(ChatMessageSchema).min(1, "messages must not be empty")
    .describe("The conversation, oldest first; at least one message."),
  temperature: z.number().min(0).max(2).nullish()
    .describe("Sampling temperature 0..2, default 1; 0 (or below 1e-6) is greedy."),
  top_p: z.number().min(0).max(1).nullish().describe("Nucleus sampling 0..1, default 1 (off)."),
  max_tokens: maxTokens.describe(
    "Most tokens to generate (≥ 1); default: the rest of the context.",
  ),
  max_completion_tokens: maxTokens.describe("Same as max_tokens; wins when both are sent."),
  // The union's own message ("Invalid input") does not say that five sequences are too many.
  stop: z.union([z.string(), z.array(z.string()).max(4)], {
    error: "must be a string or an array of at most 4 strings",
  }).nullish()
    .describe("Up to 4 sequences that end the output (not included in it)."),
  frequency_penalty: penalty.describe(
    "-2..2, default 0: lowers (or, below 0, raises) a token's logit by this much for each time " +
      "the answer already holds it.",
  ),
  presence_penalty: penalty.describe(
    "-2..2, default 0: lowers (or, below 0, raises) a token's logit by this much once the " +
      "answer holds it.",
  ),
  seed: z.number().int().nullish().describe("Sampling seed for reproducible output."),
  logit_bias: z.record(z.string().regex(/^\d+$/), z.number().min(-100).max(100), {
    error: (issue) =>
      issue.code === "invalid_key" ? "not a token id (a whole number of at least 0)" : undefined,
  }).nullish().describe(
    "Token id → -100..100, added to the token's logit before sampling (-100 all but bans it, " +
      "100 all but forces it); an id outside the model's vocabulary is a 400.",
  ),
  n: z.literal(1, { error: "only 1 choice per request is supported" }).nullish().describe(
    "Number of choices; only 1 is supported.",
  ),
  stream: z.boolean().nullish().describe("true answers with server-sent events."),
  stream_options: z.object({
    include_usage: z.boolean().nullish().describe("Adds a final chunk carrying usage."),
  }).loose().nullish().describe("Streaming options; only with stream true, else 400."),
  response_format: ResponseFormatSchema.nullish(),
  // A client that forces a tool call reads `tool_calls`, which a plain-text answer lacks: refused
  // rather than answered as if the field were absent. `tools` alone (tool_choice "auto") may
  // always be answered with text, so it stays accepted and ignored.
  tool_choice: noToolCalls.describe('"none" or "auto" (tools are not called: the answer is text).'),
  // The deprecated form of tool_choice (with `functions`): the same demand, the same refusal.
  function_call: noToolCalls.describe('"none" or "auto" (functions are not called either).'),
  logprobs: z.boolean().nullish()
    .describe("true reports each answer token's log probability (natural log), default false."),
  top_logprobs: z.number().int().min(0).max(20).nullish()
    .describe("0..20 likeliest alternatives reported per token; needs logprobs true."),
}).loose().superRefine((request, ctx) => {
  // OpenAI's rule: "logprobs must be set to true if this parameter is used".
  if ((request.top_logprobs ?? 0) > 0 && request.logprobs !== true) {
    ctx.addIssue({
      code: "custom",
      path: ["top_logprobs"],
      message: "needs logprobs: true",
    });
  }
  // OpenAI's rule: "The 'stream_options' parameter is only allowed when 'stream' is enabled."
  if (request.stream_options != null && request.stream !== true) {
    ctx.addIssue({
      code: "custom",
      path: ["stream_options"],
      message: "only allowed when stream is true",
    });
  }
});

/** One token's log probability (natural log) and its UTF-8 bytes. */
const TokenLogprobFields = {
  token: z.string().describe("The token's text."),
  logprob: z.number().max(0).describe("ln P of the token at its position."),
  bytes: z.array(z.number().int().min(0).max(255)).nullable()
    .describe("The token's UTF-8 bytes (a token may hold part of a character)."),
};

/** `logprobs` of a choice when the request set `logprobs: true`. */
export const ChoiceLogprobsSchema = z.object({
  content: z.array(z.object({
    ...TokenLogprobFields,
    top_logprobs: z.array(z.object(TokenLogprobFields))
      .describe("The top_logprobs likeliest tokens at this position, likeliest first."),
  })).nullable().describe("One entry per answer token."),
  refusal: z.null(),
});

/** Token counts of one completion. */
export const OpenAiUsageSchema = z.object({
  prompt_tokens: z.number().int().min(0).describe("Tokens of the formatted prompt."),
  completion_tokens: z.number().int().min(0).describe("Tokens generated."),
  total_tokens: z.number().int().min(0).describe("Sum of both."),
});

/** Why generation ended. */
export const FinishReasonSchema = z.enum(["stop", "length"])
  .describe('"stop": end of turn, a stop sequence or a complete grammar; "length": token limit.');

/** POST /v1/chat/completions response (non-streaming). */
export const ChatCompletionSchema = z.object({
  id: z.string().describe("chatcmpl-<uuid>."),
  object: z.literal("chat.completion"),
  created: z.number().int().describe("Epoch seconds."),
  model: z.string().describe("Id of the model that answered."),
  choices: z.array(z.object({
    index: z.literal(0),
    message: z.object({
      role: z.literal("assistant"),
      content: z.string().describe("The generated text."),
    }),
    logprobs: ChoiceLogprobsSchema.nullable().describe("null unless logprobs: true."),
    finish_reason: FinishReasonSchema,
  })).length(1),
  usage: OpenAiUsageSchema,
});

/** One server-sent event of a streamed completion. */
export const ChatCompletionChunkSchema = z.object({
  id: z.string().describe("Same id on every chunk of a stream."),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int().describe("Epoch seconds."),
  model: z.string(),
  choices: z.array(z.object({
    index: z.literal(0),
    delta: z.object({
      role: z.literal("assistant").optional().describe("Only on the first chunk."),
      content: z.string().optional().describe("Next piece of text."),
    }),
    logprobs: ChoiceLogprobsSchema.nullable()
      .describe(
        "null without logprobs: true; else the tokens whose text this chunk carries (on the " +
          "finish chunk: any not sent with text, null when none are left).",
      ),
    finish_reason: FinishReasonSchema.nullable().describe("Set on the last content chunk only."),
  })).max(1).describe("Empty on the usage chunk."),
  usage: OpenAiUsageSchema.nullable().optional()
    .describe("null on every chunk but the last when include_usage is set."),
});

/** Validity of the model file. */
export const ModelStatusSchema = z.enum(["valid", "loading", "invalid", "missing"]);

/** The served model (GET /v1/models entry). */
export const OpenAiModelSchema = z.object({
  id: z.string().describe("general.name from the GGUF metadata, else the file's base name."),
  object: z.literal("model"),
  owned_by: z.literal("local"),
  format: z.literal("gguf"),
  status: ModelStatusSchema.describe("valid | loading | invalid | missing."),
});

/** GET /v1/models body. */
export const ModelListSchema = z.object({
  object: z.literal("list"),
  data: z.array(OpenAiModelSchema).describe("The one active model."),
});

/** GET /v1/status body. */
export const StatusSchema = z.object({
  status: z.literal("running"),
  version: z.string().describe("<semver> (<build>)."),
  endpoint: z.string().describe("http://HOST:PORT the daemon serves on."),
  started_at: z.number().int().describe("Epoch seconds of start."),
  runtime: z.object({
    runtime: z.literal("llama.cpp"),
    model_id: z.string(),
    backend: z.enum(["cpu", "cuda", "vulkan", "metal"]).describe("Compute backend in use."),
    ready: z.boolean().describe("true once the model is loaded."),
  }),
  active_model: OpenAiModelSchema.extend({
    path: z.string().describe('The model file, "<redacted>" unless --expose-model-path.'),
  }),
  requests: z.object({
    running: z.number().int().nonnegative()
      .describe("Chat completions holding a slot (at most --max-concurrent-requests)."),
    queued: z.number().int().nonnegative()
      .describe("Chat completions waiting for a slot (at most --max-queued-requests)."),
  }).describe("Chat completions in flight now, as llama-server's /slots and /metrics count them."),
});

/** GET /health body (200 ok; 503 loading or error). */
export const HealthSchema = z.object({
  status: z.enum(["ok", "loading", "error"]),
  version: z.string(),
});

/** Every error code of `tolk infer` (DECISIONS.md, "Inference service"). */
export const InferenceErrorCodeSchema = z.enum([
  "invalid_request",
  "context_length_exceeded",
  "invalid_api_key",
  "host_not_allowed",
  "not_found",
  "request_timeout",
  "request_too_large",
  "rate_limit_exceeded",
  "internal_error",
  "server_busy",
  "model_not_ready",
]).describe("The contract code of an error; clients switch on it, never on the message.");

/** Every error body: `{error:{message,type,param,code}}`. */
export const ErrorBodySchema = z.object({
  error: z.object({
    message: z.string().describe("Human-readable; never an internal detail."),
    type: z.string().describe("invalid_request_error | authentication_error | …"),
    param: z.string().nullable().describe("The offending field, or null."),
    code: InferenceErrorCodeSchema,
  }),
});

/** A parsed chat completion request. */
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;
/** A choice's `logprobs`. */
export type ChoiceLogprobs = z.infer<typeof ChoiceLogprobsSchema>;
/** A chat message of a request. */
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
/** A non-streamed completion body. */
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;
/** One streamed chunk. */
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
/** Token counts. */
export type OpenAiUsage = z.infer<typeof OpenAiUsageSchema>;
/** `stop` or `length`. */
export type FinishReason = z.infer<typeof FinishReasonSchema>;
/** Model file validity. */
export type ModelStatus = z.infer<typeof ModelStatusSchema>;
/** A Model entry. */
export type OpenAiModel = z.infer<typeof OpenAiModelSchema>;
/** The models list. */
export type ModelList = z.infer<typeof ModelListSchema>;
/** The status body. */
export type Status = z.infer<typeof StatusSchema>;
/** The health body. */
export type Health = z.infer<typeof HealthSchema>;
/** An error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
/** A contract error code of `tolk infer`. */
export type InferenceErrorCode = z.infer<typeof InferenceErrorCodeSchema>;
