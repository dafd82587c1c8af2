/**
 * One-off comparison, not part of the product: two detectors we could not ship, measured on the
 * Latin-script languages of the dev split (where every short-text miss of ours lives, bar Han).
 *
 *   fastText lid.176 (the `fasttext.wasm.js` package) and Lingua 1.5 (its WebAssembly build,
 *   `@bluzzi/lingua`, 74 MB), each restricted to our 8 Latin candidates.
 *
 * Run with Node, outside the project's dependencies:
 *   cd "$(mktemp -d)" && npm install --no-save fasttext.wasm.js@1.0.0 @bluzzi/lingua@1.5.0 \
 *     && node /path/to/tolk/bench/detect_alternatives.mjs [path/to/langid-dev.jsonl]
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/`);
const devPath = process.argv[2] ??
  new URL("../tests/fixtures/eval/langid-dev.jsonl", import.meta.url);
const items = readFileSync(devPath, "utf8").trim().split("\n").map((line) => JSON.parse(line));
const OURS = ["en", "vi", "id", "ms", "fil", "fr", "de", "es"];

/** Accuracy per language and length for one `guess(text) -> our code`. */
function score(name, guess) {
  const table = {};
  const started = performance.now();
  let count = 0;
  for (const item of items) {
    if (!OURS.includes(item.lang)) continue;
    const row = (table[item.lang] ??= {});
    const cell = (row[item.len] ??= [0, 0]);
    cell[1]++;
    if (guess(item.text) === item.lang) cell[0]++;
    count++;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n### ${name} (${Math.round(count / seconds)} items/s)\n`);
  console.log("| language | short | sentence | paragraph |\n|---|---:|---:|---:|");
  for (const lang of OURS) {
    const cells = ["short", "sentence", "paragraph"].map((len) => {
      const [right, all] = table[lang][len];
      return (100 * right / all).toFixed(1);
    });
    console.log(`| ${lang} | ${cells.join(" | ")} |`);
  }
}

const { getLIDModel } = await import(require.resolve("fasttext.wasm.js"));
const fastText = await (await getLIDModel()).load();
const FASTTEXT_CODES = {
  en: "en",
  vi: "vi",
  id: "id",
  ms: "ms",
  tl: "fil",
  fr: "fr",
  de: "de",
  es: "es",
};
score("fastText lid.176", (text) => {
  const ranked = fastText.predict(text.replace(/\n/g, " "), 176, 0);
  for (let i = 0; i < ranked.size(); i++) {
    const code = FASTTEXT_CODES[ranked.get(i)[1].replace("__label__", "")];
    if (code !== undefined) return code;
  }
  return "und";
});

const { LanguageDetectorBuilder } = require("@bluzzi/lingua");
const lingua = LanguageDetectorBuilder.fromISOCodes6391([
  "en",
  "vi",
  "id",
  "ms",
  "tl",
  "fr",
  "de",
  "es",
])
  .build();
const LINGUA_CODES = {
  english: "en",
  vietnamese: "vi",
  indonesian: "id",
  malay: "ms",
  tagalog: "fil",
  french: "fr",
  german: "de",
  spanish: "es",
};
score("Lingua 1.5", (text) => {
  const [best] = lingua.computeLanguageConfidenceValues(text);
  return LINGUA_CODES[String(best?.language).toLowerCase()] ?? "und";
});
