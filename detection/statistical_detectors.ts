/**
 * The two statistical libraries behind detection, loaded once: eld (character n-grams, medium database, 60
 * languages, no Indonesian; its scoring over a packed copy of its database, `eld_table.ts`) and
 * cld3-asm (Google's CLD3 network in WebAssembly, 100+ languages).
 */
import { loadModule } from "cld3-asm";
import { EldTable } from "./eld_table.ts";

/** One library's opinion: a language code (its own spelling) and a probability-like score. */
export interface LibraryGuess {
  readonly language: string;
  readonly score: number;
}

/** Both libraries, ready for synchronous use. */
export interface StatisticalDetectors {
  /** eld's scores per language (0..1, higher is better), best first. Empty when eld has none. */
  eldScores(text: string): ReadonlyArray<LibraryGuess>;
  /** cld3's single best guess with its probability; `und` when it has none. */
  cld3(text: string): LibraryGuess & { readonly reliable: boolean };
}

// cld3 looks at most this many bytes; we cut by code points before encoding to bound the cost.
const CLD3_MAX_BYTES = 1024;

// cld3 still answers ISO 639 codes withdrawn in 1989; clients expect the current BCP 47 ones.
const CLD3_DEPRECATED_CODES: Readonly<Record<string, string>> = { iw: "he", jw: "jv" };

/**
 * Loads cld3's WebAssembly and wraps both libraries.
 *
 * @throws {Error} when the cld3 WebAssembly module cannot be compiled.
 * @example
 * const detectors = await loadStatisticalDetectors();
 * detectors.cld3("Bonjour tout le monde").language; // "fr"
 */
export async function loadStatisticalDetectors(): Promise<StatisticalDetectors> {
  const factory = await loadModule();
  const identifier = factory.create(0, CLD3_MAX_BYTES);
  const eld = new EldTable();

  function eldScores(text: string): ReadonlyArray<LibraryGuess> {
    return eld.scores(text);
  }

  function cld3(text: string): LibraryGuess & { readonly reliable: boolean } {
    const result = identifier.findLanguage(text);
    const language = String(result.language);
    return {
      language: CLD3_DEPRECATED_CODES[language] ?? language,
      score: result.probability,
      reliable: result.is_reliable,
    };
  }

  return { eldScores, cld3 };
}
