/**
 * A chat server's "longer than the context" refusal: whether an error is one, and what it says
 * in figures: its context and the prompt's tokens, as the common servers word it — tolk infer
 * ("this model's context is 2048 tokens; the request needs 1294 prompt tokens + 1943
 * max_tokens"), vLLM and OpenAI ("maximum context length is 2048 tokens. However, you requested
 * 3237 tokens (1294 in the messages, 1943 in the completion)"; vLLM's V1 engine: "… is 2048
 * tokens and your request has 1294 input tokens"), llama.cpp's server (`n_ctx`,
 * `n_prompt_tokens`). Our token estimate errs with some tokenizers and a configured context may
 * be larger than the server's: the server's own figures say how much answer still fits.
 *
 * Pure: no I/O.
 */

/**
 * How servers say a request is longer than the model's context ("the input length exceeds the
 * context length", "maximum context length is …", "prompt too long"), and not what merely
 * mentions a context: Ollama's "failed to create context with model" (out of memory) or a Go
 * "context deadline exceeded" are failures of the server, not of the request's length.
 */
const TOO_LONG = /context (length|size|window)|too (long|many tokens)|exceeds? .*context/i;

/** Whether a server's error message says the request does not fit the model's context. */
export function saysTooLongForContext(message: string): boolean {
  return TOO_LONG.test(message);
}

const CONTEXT = /context(?: length| size)? is (\d+) tokens|"?n_ctx"?\s*[:=]\s*(\d+)/i;
const PROMPT = new RegExp(
  [
    String.raw`(\d+) prompt tokens`,
    String.raw`\((\d+) in the messages`,
    String.raw`request has (\d+) input tokens`,
    String.raw`"?n_prompt_tokens"?\s*[:=]\s*(\d+)`,
  ].join("|"),
  "i",
);

/**
 * Tokens an answer may take after the prompt, by the server's own figures; undefined when the
 * refusal gives none, or leaves no room.
 */
export function answerRoom(refusal: string): number | undefined {
  const context = CONTEXT.exec(refusal);
  const prompt = PROMPT.exec(refusal);
  if (!context || !prompt) return undefined;
  const room = Number(context[1] ?? context[2]) - Number(prompt.slice(1).find(Boolean));
  return room > 0 ? room : undefined;
}
