/**
 * Language-detection benchmark: accuracy per language and per length on the dev split, macro
 * accuracy, confidence calibration, throughput on sentences, and first-call latency.
 *
 * Usage: deno task bench:detect [detector-name ...]   (default: every detector)
 * Set DETECT_EVAL to read another JSONL file of {text, lang, len} items.
 */
import { LANGUAGE_CODES } from "../schemas/languages.ts";
import { LENGTHS, mean, readLabelledItems, scoreDetector } from "../detection/accuracy.ts";

const SPEED_ROUNDS = 3;

function evalPath(): string | URL {
  return Deno.env.get("DETECT_EVAL") ??
    new URL("../tests/fixtures/eval/langid-dev.jsonl", import.meta.url);
}

function percent(right: number, total: number): string {
  return total === 0 ? "–" : (100 * right / total).toFixed(1);
}

// Imported here, not at the top, so the first-call time includes evaluating the modules and data.
const loadStart = performance.now();
const { loadLanguageDetector } = await import("../detection/language_detector.ts");
const detector = await loadLanguageDetector();
const loaded = performance.now();
detector.detect("Das ist der erste Aufruf nach dem Start.");
const firstCall = performance.now();
console.log(
  `first call after start: ${(firstCall - loadStart).toFixed(0)} ms ` +
    `(import + load ${(loaded - loadStart).toFixed(0)} ms, first detect ${
      (firstCall - loaded).toFixed(1)
    } ms)`,
);

const items = await readLabelledItems(evalPath());
const names = Deno.args.length > 0 ? Deno.args : detector.names;
for (const name of names) {
  const { accuracy, byLength: lengthAccuracy, macro, confident, confidentRight } = scoreDetector(
    detector,
    items,
    name,
  );
  console.log(`\n### ${name}\n`);
  console.log("| language | short | sentence | paragraph | all |");
  console.log("|---|---:|---:|---:|---:|");
  for (const lang of LANGUAGE_CODES) {
    const cells = LENGTHS.map((len) => (100 * accuracy(lang, len)).toFixed(1));
    const all = mean(LENGTHS.map((len) => accuracy(lang, len)));
    console.log(`| ${lang} | ${cells.join(" | ")} | ${(100 * all).toFixed(1)} |`);
  }
  const byLength = LENGTHS.map(lengthAccuracy);
  console.log(
    `| **macro** | ${byLength.map((v) => (100 * v).toFixed(1)).join(" | ")} | **${
      (100 * macro).toFixed(1)
    }** |`,
  );
  console.log(
    `\nconfidence ≥ 0.9: ${confident} of ${items.length} answers, ` +
      `${percent(confidentRight, confident)}% right`,
  );

  const sentences = items.filter((item) => item.len === "sentence").map((item) => item.text);
  const started = performance.now();
  for (let round = 0; round < SPEED_ROUNDS; round++) {
    for (const text of sentences) detector.detect(text, name);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `speed: ${Math.round(SPEED_ROUNDS * sentences.length / seconds).toLocaleString("en")} ` +
      "sentence items/s (one thread)",
  );
}
