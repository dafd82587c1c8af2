/**
 * Maps BCP 47 codes to the language codes of the model families the built-in engine loads:
 * NLLB-200 (FLORES-200 `eng_Latn`), M2M100 (`en`, token `__en__`) and Marian / Opus-MT (one
 * language pair per model, `>>xx<<` target prefixes on multi-target models).
 */
import { isChineseScript } from "./script_conversion.ts";

/** FLORES-200 codes of the 16 service languages, plus common languages outside them. */
const NLLB_CODES: Readonly<Record<string, string>> = {
  "en": "eng_Latn",
  "zh-Hans": "zho_Hans",
  "zh-Hant": "zho_Hant",
  "vi": "vie_Latn",
  "th": "tha_Thai",
  "id": "ind_Latn",
  "ms": "zsm_Latn",
  "fil": "tgl_Latn",
  "my": "mya_Mymr",
  "km": "khm_Khmr",
  "lo": "lao_Laoo",
  "ja": "jpn_Jpan",
  "ko": "kor_Hang",
  "fr": "fra_Latn",
  "de": "deu_Latn",
  "es": "spa_Latn",
  "ar": "arb_Arab",
  "hi": "hin_Deva",
  "it": "ita_Latn",
  "nl": "nld_Latn",
  "pl": "pol_Latn",
  "pt": "por_Latn",
  "ru": "rus_Cyrl",
  "tr": "tur_Latn",
  "uk": "ukr_Cyrl",
};

/**
 * ISO 639-3 codes of languages outside the table above, for finding a FLORES-200 code in a
 * tokenizer's own list (`az` → `azj_Latn`): the detector may answer any of these.
 */
const ISO_639_3: Readonly<Record<string, string>> = {
  af: "afr",
  am: "amh",
  as: "asm",
  az: "azj",
  be: "bel",
  bg: "bul",
  bn: "ben",
  bs: "bos",
  ca: "cat",
  cs: "ces",
  cy: "cym",
  da: "dan",
  el: "ell",
  eo: "epo",
  et: "est",
  eu: "eus",
  fa: "pes",
  fi: "fin",
  ga: "gle",
  gl: "glg",
  gu: "guj",
  ha: "hau",
  he: "heb",
  hr: "hrv",
  hu: "hun",
  hy: "hye",
  ig: "ibo",
  is: "isl",
  jv: "jav",
  ka: "kat",
  kk: "kaz",
  kn: "kan",
  ku: "kmr",
  ky: "kir",
  lb: "ltz",
  lt: "lit",
  lv: "lvs",
  mg: "plt",
  mk: "mkd",
  ml: "mal",
  mn: "khk",
  mr: "mar",
  mt: "mlt",
  nb: "nob",
  ne: "npi",
  nn: "nno",
  no: "nob",
  or: "ory",
  pa: "pan",
  ps: "pbt",
  ro: "ron",
  sd: "snd",
  si: "sin",
  sk: "slk",
  sl: "slv",
  so: "som",
  sq: "als",
  sr: "srp",
  su: "sun",
  sv: "swe",
  sw: "swh",
  ta: "tam",
  te: "tel",
  tg: "tgk",
  ur: "urd",
  uz: "uzn",
  xh: "xho",
  yi: "ydd",
  yo: "yor",
  zu: "zul",
};

/**
 * ISO 639 codes a model may use for a language, most common first. Opus-MT names use two
 * letters, Tatoeba models three; M2M100 calls Filipino `tl`.
 */
const ISO_CODES: Readonly<Record<string, readonly string[]>> = {
  "en": ["en", "eng"],
  "zh-Hans": ["zh", "zho", "cmn"],
  "zh-Hant": ["zh", "zho", "cmn"],
  "vi": ["vi", "vie"],
  "th": ["th", "tha"],
  "id": ["id", "ind"],
  "ms": ["ms", "msa", "zsm"],
  "fil": ["tl", "fil", "tgl"],
  "my": ["my", "mya"],
  "km": ["km", "khm"],
  "lo": ["lo", "lao"],
  "ja": ["ja", "jpn"],
  "ko": ["ko", "kor"],
  "fr": ["fr", "fra"],
  "de": ["de", "deu"],
  "es": ["es", "spa"],
};

/** A target as the model sees it, and the Chinese script its output must be rewritten into. */
export interface ModelTarget {
  /** The model's code for the target (`tgt_lang`), or the `>>xx<<` prefix for Marian; null when
   * the model has a single target and needs no marker. */
  code: string | null;
  /** Rewrite the output into this script (the model's code names no script). */
  script: "zh-Hans" | "zh-Hant" | null;
}

/** How one loaded model names languages. */
export interface LanguageScheme {
  /** The model's code for a source language, or null when the model cannot read it. */
  source(language: string): string | null;
  /** The model's target for a language, or null when the model cannot write it. */
  target(language: string): ModelTarget | null;
}

/**
 * The scheme of a tokenizer with language tokens: NLLB when its codes look like `eng_Latn`,
 * M2M100 otherwise (`languageCodes` are the inner parts `en` of `__en__`).
 */
export function tokenScheme(languageCodes: readonly string[]): LanguageScheme {
  const known = new Set(languageCodes);
  const flores = languageCodes.some((code) => /^[a-z]{3}_[A-Z][a-z]{3}$/.test(code));
  const lookup = (language: string): string | null => {
    if (known.has(language)) return language;
    if (flores) {
      const code = NLLB_CODES[language];
      if (code) return known.has(code) ? code : null;
      // Any other language: the tokenizer's own code for it, whatever its script.
      const iso3 = ISO_639_3[language] ?? (/^[a-z]{3}$/.test(language) ? language : undefined);
      return iso3 === undefined
        ? null
        : languageCodes.find((candidate) => candidate.startsWith(`${iso3}_`)) ?? null;
    }
    return (ISO_CODES[language] ?? [language]).find((code) => known.has(code)) ?? null;
  };
  return {
    source: lookup,
    target(language) {
      const code = lookup(language);
      if (code === null) return null;
      // M2M100 has one `zh`: the script has to be set after translation.
      return {
        code,
        script: isChineseScript(language) && !/_Han[st]$/.test(code) ? language : null,
      };
    },
  };
}

/** What a Marian model declares about its one language pair. */
export interface MarianPair {
  /** Source language (ISO 639, as the model names it). */
  source: string;
  /** Target languages (ISO 639). */
  targets: string[];
  /** `>>xx<<` tokens of a multi-target model (empty for a single target). */
  targetTokens: string[];
}

/**
 * The pair of a Marian model, from `tokenizer_config.json` (`source_lang`/`target_lang`) or else
 * the Opus-MT repository name (`opus-mt-en-de`); null when neither says.
 */
export function marianPair(
  config: { source_lang?: unknown; target_lang?: unknown },
  modelId: string,
  vocabulary: Iterable<string>,
): MarianPair | null {
  const targetTokens = [...vocabulary].filter((token) => /^>>\w+<<$/.test(token));
  const fromName = /opus-mt-(?:tc-big-)?([a-z]{2,3})-([a-z]{2,3})$/i.exec(modelId);
  const source = typeof config.source_lang === "string" ? config.source_lang : fromName?.[1];
  const target = typeof config.target_lang === "string" ? config.target_lang : fromName?.[2];
  if (!source || (!target && targetTokens.length === 0)) return null;
  const targets = targetTokens.length > 0 ? targetTokens.map((token) => token.slice(2, -2)) : [
    target!,
  ];
  return { source: source.toLowerCase(), targets, targetTokens };
}

/** The scheme of a Marian model: only its own source, and its target(s). */
export function marianScheme(pair: MarianPair): LanguageScheme {
  const matches = (language: string, code: string) =>
    (ISO_CODES[language] ?? [language]).includes(code.toLowerCase());
  return {
    source: (language) => matches(language, pair.source) ? pair.source : null,
    target(language) {
      const code = pair.targets.find((candidate) => matches(language, candidate));
      if (code === undefined) return null;
      return {
        code: pair.targetTokens.length > 0 ? `>>${code}<<` : null,
        script: isChineseScript(language) ? language : null,
      };
    },
  };
}
