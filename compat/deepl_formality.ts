/**
 * DeepL's `formality`: read into the tone hint tolk gives engines, and held to what the engine
 * that would translate does with it (LLM engines read the tone, the built-in model reads none), as
 * DeepL holds it to the target language. Pure: the caller says which engine would run.
 */
import { BUILTIN_ENGINE_ID } from "../engines/builtin/builtin_engine.ts";
import { serviceError } from "../errors/translation_errors.ts";
import type { EngineId } from "../schemas/languages.ts";

/** DeepL `formality` → the tone hint tolk gives engines (undefined: the engine's default). */
const FORMALITY_TONES: Record<string, string | undefined> = {
  default: undefined,
  more: "formal",
  prefer_more: "formal",
  less: "informal",
  prefer_less: "informal",
  // DeepL's newer spellings (its CLI and API reference list them beside more and less).
  formal: "formal",
  informal: "informal",
};

/** A DeepL `formality` read. */
export interface DeepLFormality {
  /** The tone engines are given; undefined for `default`. */
  tone?: string;
  /**
   * Whether the value must be honoured or refused (`more`, `less`): DeepL refuses them for a
   * target without formality, and only its `prefer_` values fall back to the default.
   */
  strict: boolean;
}

/**
 * Reads DeepL's `formality` in any case (absent: `default`).
 *
 * @throws {TranslationServiceError} `invalid_request` naming `formality` for another value.
 */
export function readFormality(value: string | undefined): DeepLFormality {
  const formality = value?.toLowerCase() ?? "default";
  if (!Object.hasOwn(FORMALITY_TONES, formality)) {
    throw serviceError("invalid_request", `Value for 'formality' not supported: "${formality}"`, {
      param: "formality",
    });
  }
  const tone = FORMALITY_TONES[formality];
  return {
    ...(tone ? { tone } : {}),
    strict: tone !== undefined && !formality.startsWith("prefer_"),
  };
}

/**
 * Whether `formality` changes a translation by `engine` (the one `auto` would run, if any): LLM
 * engines read its tone, the built-in model none; no engine's choice depends on the target.
 */
export function formalityHonoured(engine: EngineId | undefined): boolean {
  return engine !== undefined && engine !== BUILTIN_ENGINE_ID;
}

/**
 * Refuses a strict formality that `engine` would not honour, as DeepL refuses `more` and `less`
 * for a target without formality (rather than translating in the default tone unsaid).
 *
 * @throws {TranslationServiceError} `invalid_request` naming `formality`.
 */
export function checkFormality(formality: DeepLFormality, engine: EngineId | undefined): void {
  if (!formality.strict || formalityHonoured(engine)) return;
  throw serviceError(
    "invalid_request",
    "'formality' is not supported by the engine that would translate (the built-in model reads " +
      "no tone; an LLM engine does): use prefer_more or prefer_less to fall back to the default",
    { param: "formality" },
  );
}
