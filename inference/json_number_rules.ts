/**
 * The number rules of node-llama-cpp's JSON schema grammars, as a client can read them.
 *
 * node-llama-cpp writes `integer` and `number` with the same exponent of up to 16 digits, so an
 * integer came out as `607E9` (a float to Python's `json`) or `-8899E81`, and any number as
 * `9e1372917257665635`, which parses to Infinity. The integer rule here is llama.cpp's own
 * (json-schema-to-grammar: digits, no fraction, no exponent); the number rule keeps the exponent
 * to two digits, so every value stays finite (at most 16 digits × 10^99). Pure: text in, text out.
 */

/** node-llama-cpp's rule names (`reservedRuleNames.number` in its gbnfJson). */
const INTEGER_RULE = "integer-number-rule";
const NUMBER_RULE = "fractional-number-rule";

const INTEGRAL = '"-"? ("0" | [1-9] [0-9]{0,15})';
const FRACTION = '("." [0-9]{1,16})?';
const EXPONENT = '([eE] [-+]? ("0" | [1-9] [0-9]?))?';

const RULES: ReadonlyMap<string, string> = new Map([
  [INTEGER_RULE, INTEGRAL],
  [NUMBER_RULE, `${INTEGRAL} ${FRACTION} ${EXPONENT}`],
]);

/**
 * `grammar` (GBNF from `llama.createGrammarForJsonSchema`) with its number rules replaced; a
 * grammar without numbers comes back unchanged.
 *
 * @example
 * ```ts
 * const schemaGrammar = await llama.createGrammarForJsonSchema(schema);
 * const grammar = await llama.createGrammar({
 *   grammar: boundedNumberRules(schemaGrammar.grammar),
 *   stopGenerationTriggers: schemaGrammar.stopGenerationTriggers,
 *   trimWhitespaceSuffix: schemaGrammar.trimWhitespaceSuffix,
 * });
 * ```
 */
export function boundedNumberRules(grammar: string): string {
  return grammar.replace(/^([\w-]+) ::= .*$/gm, (line, name: string) => {
    const rule = RULES.get(name);
    return rule === undefined ? line : `${name} ::= ${rule}`;
  });
}
