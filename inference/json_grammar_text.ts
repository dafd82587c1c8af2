/**
 * node-llama-cpp's JSON grammars (json_object's and json_schema's), corrected so their output is
 * JSON a client reads as the schema says. Pure: GBNF text in, GBNF text out.
 *
 * - Numbers: node-llama-cpp writes `integer` and `number` with the same exponent of up to 16
 *   digits (llama.cpp's json.gbnf, json_object's grammar, too), so an integer came out as `607E9`
 *   (a float to Python's `json`) or `-8899E81`, and any number as `9e1372917257665635`, which
 *   parses to Infinity. The integer rule here is llama.cpp's own (json-schema-to-grammar: digits,
 *   no fraction, no exponent), of at most 15 digits, so every integer is exact in a double;
 *   number rules keep the exponent to two digits, so every value stays finite (at most 16 digits
 *   × 10^99).
 * - Dates (`format` `date` and `date-time`): node-llama-cpp gives every month 31 days, so
 *   "2023-11-31" came out, which no date parser reads as a day. Here each month has its days,
 *   and February 29 comes only in leap years.
 * - Literal strings (`enum` and `const` values, property names): node-llama-cpp escapes only
 *   `\t`, `\n` and `\r`, so any other control character was written raw into the JSON string
 *   (invalid JSON), and a NUL made the grammar fail to compile. Its compiler is only reached
 *   through `createGrammarForJsonSchema`, which compiles what it writes: so such characters are
 *   masked in the schema first ({@link maskedControlCharacters}) and unmasked as JSON escapes in
 *   the text ({@link correctedSchemaGrammar}).
 * - `\u` escapes in generated strings (both grammars): any four hex digits were allowed, so a
 *   high surrogate could come without its low one (`"\uD800"`), which strict JSON readers
 *   refuse and others turn into U+FFFD. Here a surrogate escape comes only as a high-low pair.
 */

/** node-llama-cpp's rule names (`reservedRuleNames.number` in its gbnfJson). */
const INTEGER_RULE = "integer-number-rule";
const NUMBER_RULE = "fractional-number-rule";

const INTEGRAL = '"-"? ("0" | [1-9] [0-9]{0,15})';

/**
 * The largest `integer` the schema grammar writes: 15 digits, so every one is exact as a double
 * (at most 2^53 - 1, which zod writes as the bounds of `z.int()`).
 */
export const MAX_GRAMMAR_INTEGER = 999_999_999_999_999;
const INTEGER = `"-"? ("0" | [1-9] [0-9]{0,${String(MAX_GRAMMAR_INTEGER).length - 1}})`;
const FRACTION = '("." [0-9]{1,16})?';
const EXPONENT = '([eE] [-+]? ("0" | [1-9] [0-9]?))?';

/** node-llama-cpp's date, in its `date` and `date-time` rules. */
const ANY_DAY_DATE = '[0-9]{4} "-" ("0" [1-9] | "1" [012]) "-" ("0" [1-9] | [12] [0-9] | "3" [01])';
const TO_28 = '("0" [1-9] | "1" [0-9] | "2" [0-8])';
const LEAP_YEAR =
  '([0-9]{2} ("0" [48] | [2468] [048] | [13579] [26]) | ("0" [48] | [2468] [048] | [13579] [26]) "00" | "0000")';
const CALENDAR_DATE =
  `([0-9]{4} "-" (("0" [13578] | "1" [02]) "-" (${TO_28} | "29" | "3" [01]) | ` +
  `("0" [469] | "11") "-" (${TO_28} | "29" | "30") | "02-" ${TO_28}) | ${LEAP_YEAR} "-02-29")`;

/** Both grammars' `\u` escape, any four hex digits (surrogates alone too). */
const ANY_UNICODE_ESCAPE = 'u" [0-9a-fA-F]{4}';
const HEX = "[0-9a-fA-F]";
/** Four hex digits of a code unit that is no surrogate (D800–DFFF), or a high-low pair. */
const PAIRED_UNICODE_ESCAPE = `u" ([0-9a-cA-CeEfF] ${HEX}{3} | [dD] [0-7] ${HEX}{2} | ` +
  `[dD] [89abAB] ${HEX}{2} "\\\\u" [dD] [c-fC-F] ${HEX}{2})`;

/**
 * A control character's stand-in: letters and digits only (kept as they are in GBNF literals),
 * random per process so no schema can spell it.
 */
const MASK = `tolk${crypto.randomUUID().replaceAll("-", "")}c`;
const MASKED = new RegExp(`${MASK}([0-9a-f]{2})`, "g");
// deno-lint-ignore no-control-regex -- control characters are what this looks for
const UNESCAPED_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

const SCHEMA_NUMBER_RULES: ReadonlyMap<string, string> = new Map([
  [INTEGER_RULE, INTEGER],
  [NUMBER_RULE, `${INTEGRAL} ${FRACTION} ${EXPONENT}`],
]);

/** json.gbnf's `number`, its exponent bounded (its fraction, unbounded, stays finite). */
const JSON_NUMBER_RULES: ReadonlyMap<string, string> = new Map([
  ["number", `("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ${EXPONENT} ws`],
]);

/**
 * `grammar` (GBNF from `llama.createGrammarForJsonSchema`) with its number and date rules
 * replaced and the control characters of its literal strings escaped as JSON writes them.
 *
 * @example
 * ```ts
 * const schemaGrammar = await llama.createGrammarForJsonSchema(schema);
 * const grammar = await llama.createGrammar({
 *   grammar: correctedSchemaGrammar(schemaGrammar.grammar),
 *   stopGenerationTriggers: schemaGrammar.stopGenerationTriggers,
 *   trimWhitespaceSuffix: schemaGrammar.trimWhitespaceSuffix,
 * });
 * ```
 */
export function correctedSchemaGrammar(grammar: string): string {
  // In GBNF `\\` is one backslash: the model writes JSON's escape `\u0001`.
  return replacedRules(grammar, SCHEMA_NUMBER_RULES)
    .replaceAll(ANY_DAY_DATE, CALENDAR_DATE)
    .replaceAll(ANY_UNICODE_ESCAPE, PAIRED_UNICODE_ESCAPE)
    .replace(MASKED, "\\\\u00$1");
}

/**
 * `grammar` (llama.cpp's json.gbnf, from `llama.getGrammarFor("json")`) with its number rule
 * replaced and its `\u` escapes paired.
 *
 * @throws {Error} when the grammar has no `number` rule or no `\u` escape (a node-llama-cpp that
 * changed them).
 */
export function correctedJsonGrammar(grammar: string): string {
  const corrected = replacedRules(grammar, JSON_NUMBER_RULES);
  if (corrected === grammar) throw new Error("json.gbnf has no number rule to bound");
  if (!corrected.includes(ANY_UNICODE_ESCAPE)) throw new Error("json.gbnf has no \\u escape");
  return corrected.replaceAll(ANY_UNICODE_ESCAPE, PAIRED_UNICODE_ESCAPE);
}

/**
 * `schema` with every control character node-llama-cpp does not escape, in every string and
 * key, replaced by its stand-in (`$ref` and `$defs` names alike, so they still meet).
 */
export function maskedControlCharacters(schema: unknown): unknown {
  if (typeof schema === "string") return mask(schema);
  if (Array.isArray(schema)) return schema.map(maskedControlCharacters);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [mask(key), maskedControlCharacters(value)]),
  );
}

function mask(text: string): string {
  return text.replace(
    UNESCAPED_CONTROL,
    (character) => `${MASK}${character.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

function replacedRules(grammar: string, rules: ReadonlyMap<string, string>): string {
  return grammar.replace(/^([\w-]+)\s*::= .*$/gm, (line, name: string) => {
    const rule = rules.get(name);
    return rule === undefined ? line : `${name} ::= ${rule}`;
  });
}
