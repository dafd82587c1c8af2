/**
 * Regenerates `eld_medium_table.json`: eld's "medium" n-gram database (npm eld, Apache-2.0, by
 * Nito T.M.) packed into bytes, with the two pieces of its text processing that detection repeats
 * (the byte-to-character dictionary and the word-separator pattern). `detection/eld_table.ts`
 * scores text with it exactly as eld does; `tests/detection/eld_table_test.ts` checks that the
 * committed file is what this script makes from the installed eld, and that the scores agree.
 *
 * Why: eld's own module builds the database as 105,548 JavaScript objects and their keys, 42 MB
 * of heap that every full garbage collection marks again (BENCHMARKS.md, WebSocket load).
 *
 * Table layout, one record per n-gram: key length (1 byte), the key's character codes (all below
 * 256), the number of languages (1 byte), then per language its index and score (1 byte each).
 *
 * Usage: deno run --allow-read --allow-write detection/data/make_eld_table.ts
 */
// eld's package exports only its detectors; the data modules are read by path (generator only).
import { ngramsData } from "../../node_modules/eld/src/ngrams/medium.js";
import { dictionary } from "../../node_modules/eld/src/dictionary.js";
import { separators } from "../../node_modules/eld/src/regexPatterns.js";
import eldPackage from "../../node_modules/eld/package.json" with { type: "json" };

/** The JSON file's shape. */
export interface EldTableFile {
  source: string;
  licence: string;
  generator: string;
  /** Language codes by eld's index. */
  languages: string[];
  /** 256 characters: the one eld writes for each byte of a UTF-8 sequence. */
  dictionary: string;
  separators: { source: string; flags: string };
  /** The packed records, base64. */
  table: string;
}

/** Builds the file's content from the installed eld. */
export function makeEldTable(): EldTableFile {
  const languages = Object.entries(ngramsData.languages as Record<string, string>)
    .map(([index, code]) => ({ index: Number(index), code }))
    .sort((a, b) => a.index - b.index);
  if (languages.some((language, i) => language.index !== i)) {
    throw new Error("eld's language indexes are not 0..n-1");
  }
  const bytes: number[] = [];
  const byte = (value: number, what: string) => {
    if (!Number.isInteger(value) || value < 0 || value > 255) {
      throw new Error(`${what} ${value} does not fit a byte`);
    }
    bytes.push(value);
  };
  const ngrams = ngramsData.ngrams as Record<string, Record<string, number>>;
  for (const [key, scores] of Object.entries(ngrams)) {
    byte(key.length, "key length");
    for (let i = 0; i < key.length; i++) byte(key.charCodeAt(i), `character of "${key}"`);
    const entries = Object.entries(scores);
    byte(entries.length, "language count");
    for (const [language, score] of entries) {
      byte(Number(language), "language index");
      byte(score, "score");
    }
  }
  const chars = Array.from({ length: 256 }, (_, i) => dictionary[i] as string);
  if (chars.some((char) => char.length !== 1)) throw new Error("eld's dictionary changed shape");
  return {
    source: `npm eld ${eldPackage.version}, database ${ngramsData.type} (medium)`,
    licence: "Apache-2.0 (eld, Nito T.M.)",
    generator: "detection/data/make_eld_table.ts",
    languages: languages.map((language) => language.code),
    dictionary: chars.join(""),
    separators: { source: separators.source, flags: separators.flags },
    table: new Uint8Array(bytes).toBase64(),
  };
}

if (import.meta.main) {
  const path = new URL("./eld_medium_table.json", import.meta.url);
  await Deno.writeTextFile(path, JSON.stringify(makeEldTable()) + "\n");
  console.log(`wrote ${path.pathname}`);
}
