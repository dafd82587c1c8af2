/**
 * When a thinking model's reasoning is its answer. Servers route a thinking model's output into
 * a reasoning field and leave the content empty in two cases: the whole output, format-bound
 * JSON included (vLLM's DeepSeek-R1 parser when the model never writes `</think>`; Ollama's
 * `thinking`), or the reasoning alone (the model ran out of tokens, or stopped, before its
 * answer). Only the first is an answer. Reasoning in words often quotes a draft (`A first try:
 * {"1": "Good morning"}. But …`), which the lenient answer reading would find in the prose and
 * return as the translation: such reasoning is no answer, asked again as an empty one is.
 *
 * Pure: no I/O.
 */

/** The JSON answer on its own: an object or array, or a code fence around one. */
const ANSWER_START = /^\s*(?:[{[]|```)/;

/**
 * The text to read as the answer from a message's `reasoning` when its content is blank: the
 * reasoning when it is the JSON answer on its own, else "" (an empty answer).
 *
 * @example
 * ```ts
 * answerInReasoning('{"1": "Hello"}'); // '{"1": "Hello"}'
 * answerInReasoning('A first try: {"1": "Good morning"}. But'); // ""
 * ```
 */
export function answerInReasoning(reasoning: string): string {
  return ANSWER_START.test(reasoning) ? reasoning : "";
}
