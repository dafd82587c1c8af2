/**
 * Asks llama.cpp's own grammar engine, through node-llama-cpp's evaluation state, whether a
 * compiled grammar admits a text as an answer: the text's tokens are fed one by one as generation
 * feeds them, then the answer must be able to end, either at once (the end-of-generation token is
 * allowed only once the grammar is complete) or after the grammar's stop trigger (node-llama-cpp's
 * schema grammars end in four newlines, where generation stops and which the answer leaves out).
 * Unlike gbnf_regexp.ts this reads recursive rules (objects holding objects) too.
 */
import { type LlamaGrammar, LlamaGrammarEvaluationState, type LlamaModel } from "node-llama-cpp";
import { grammarStopTriggers } from "../../inference/grammar_cache.ts";

/** The bindings' calls node-llama-cpp's sampler makes (not part of its public types). */
interface GrammarBindings {
  AddonSampler: {
    canBeNextTokenForGrammarEvaluationState(state: unknown, token: number): boolean;
    acceptGrammarEvaluationStateToken(state: unknown, token: number): void;
  };
}

/**
 * Whether `grammar` admits `text` whole as an answer.
 *
 * @example
 * ```ts
 * assert.ok(grammarAccepts(vocabulary, grammar, '{"a":1}'));
 * ```
 */
export function grammarAccepts(model: LlamaModel, grammar: LlamaGrammar, text: string): boolean {
  const { AddonSampler } = (model as unknown as { _llama: { _bindings: GrammarBindings } })
    ._llama._bindings;
  const end = model.tokens.eos;
  if (end === null) throw new Error("the model has no end-of-generation token");
  /** Feeds `more` to `state`; false at the first token the grammar refuses. */
  const fed = (state: LlamaGrammarEvaluationState, more: string): boolean => {
    const native = (state as unknown as { _state: unknown })._state;
    for (const token of model.tokenize(more, false, "trimLeadingSpace")) {
      if (!AddonSampler.canBeNextTokenForGrammarEvaluationState(native, token)) return false;
      AddonSampler.acceptGrammarEvaluationStateToken(native, token);
    }
    return true;
  };
  const canEnd = (state: LlamaGrammarEvaluationState) =>
    AddonSampler.canBeNextTokenForGrammarEvaluationState(
      (state as unknown as { _state: unknown })._state,
      end,
    );
  // Each ending is tokenized with the text, as generation would have written it.
  return ["", ...grammarStopTriggers(grammar).map(String)].some((trigger) => {
    const state = new LlamaGrammarEvaluationState({ model, grammar });
    return fed(state, text + trigger) && canEnd(state);
  });
}
