/**
 * The grammars of `response_format`, compiled once per schema.
 *
 * A compile runs on the event loop and takes tens of milliseconds within the schema limits
 * (json_schema_grammar.ts), while a client usually sends the same schema with every request: so
 * the grammars of the last {@link GRAMMAR_CACHE_SIZE} schemas are kept, the oldest dropped first.
 * A compile that fails is not kept, so it holds no place a usable grammar could take.
 */
import { type Llama, type LlamaGrammar, LlamaText } from "node-llama-cpp";
import type { OutputFormat } from "./generation.ts";
import {
  correctedJsonGrammar,
  correctedSchemaGrammar,
  maskedControlCharacters,
} from "./json_grammar_text.ts";

/** How many compiled grammars are kept. */
export const GRAMMAR_CACHE_SIZE = 32;

/** Compiled grammars by output format, for one loaded runtime. */
export class GrammarCache {
  readonly #llama: Llama;
  readonly #grammars = new Map<string, Promise<LlamaGrammar>>();

  /**
   * @example
   * ```ts
   * const grammars = new GrammarCache(await loadLlama(false));
   * const grammar = await grammars.grammarFor({ kind: "json" });
   * ```
   */
  constructor(llama: Llama) {
    this.#llama = llama;
  }

  /**
   * The grammar output in `format` must match (none for plain text); the same format gets the
   * same compiled grammar while it is kept.
   *
   * @throws {Error} node-llama-cpp's, when it cannot compile the schema (as a rejection).
   */
  grammarFor(format: OutputFormat): Promise<LlamaGrammar | undefined> {
    if (format.kind === "text") return Promise.resolve(undefined);
    const key = format.kind === "json" ? "json" : JSON.stringify(format.schema);
    let grammar = this.#grammars.get(key);
    if (!grammar) {
      grammar = format.kind === "json"
        ? jsonGrammar(this.#llama)
        : schemaGrammar(this.#llama, format.schema);
      grammar.catch(() => this.#grammars.delete(key));
      this.#grammars.set(key, grammar);
      if (this.#grammars.size > GRAMMAR_CACHE_SIZE) {
        this.#grammars.delete(this.#grammars.keys().next().value!);
      }
    }
    return grammar;
  }
}

/** llama.cpp's json.gbnf (json_object), its numbers bounded (json_grammar_text.ts). */
async function jsonGrammar(llama: Llama): Promise<LlamaGrammar> {
  return recompiled(llama, await llama.getGrammarFor("json"), correctedJsonGrammar);
}

/**
 * node-llama-cpp's grammar of `schema`, corrected so its output is JSON a client reads as the
 * schema says (json_grammar_text.ts).
 */
async function schemaGrammar(llama: Llama, schema: Record<string, unknown>): Promise<LlamaGrammar> {
  const compiled = await llama.createGrammarForJsonSchema(maskedControlCharacters(schema) as never)
    .catch((error) => {
      // llama.cpp's parser logs its reason and node-llama-cpp throws only "Failed to parse
      // grammar". Bounds within MAX_REPETITIONS still fail when the repeated part spans several
      // rules (llama.cpp multiplies them): a tuple's items, a string's characters past ~1,000.
      if (!(error instanceof Error && /failed to parse grammar/i.test(error.message))) throw error;
      throw new Error(
        "llama.cpp cannot compile its grammar: a minItems, maxItems, minLength, maxLength, " +
          "minProperties or maxProperties above about 1,000 repeats more rules than it allows " +
          "(2,000)",
        { cause: error },
      );
    });
  return recompiled(llama, compiled, correctedSchemaGrammar);
}

/**
 * `grammar` with its text corrected. The second compile costs ~1 ms; writing the text, which
 * node-llama-cpp does not offer without compiling it, is what takes tens.
 */
function recompiled(
  llama: Llama,
  grammar: LlamaGrammar,
  correct: (text: string) => string,
): Promise<LlamaGrammar> {
  return llama.createGrammar({
    grammar: correct(grammar.grammar),
    rootRuleName: grammar.rootRuleName,
    stopGenerationTriggers: grammar.stopGenerationTriggers,
    trimWhitespaceSuffix: grammar.trimWhitespaceSuffix,
  });
}

/**
 * The texts that end an answer under `grammar`. node-llama-cpp's JSON grammars end in four
 * newlines followed by any number more, its cue to stop the model (`[\n]*` runs on to
 * max_tokens otherwise): they end the answer as the template's end of turn does, left out of it.
 * Token-sequence triggers are not used by node-llama-cpp's grammars and are skipped.
 */
export function grammarStopTriggers(grammar: LlamaGrammar | undefined): LlamaText[] {
  return (grammar?.stopGenerationTriggers ?? [])
    .filter((trigger) => !Array.isArray(trigger))
    .map((trigger) => LlamaText(trigger as string | LlamaText));
}
