/**
 * Language-detection benchmark: accuracy per language and per length on the dev split, macro
 * accuracy, confidence calibration, throughput on sentences, and first-call latency.
 *
 * Usage: deno task bench:detect [detector-name ...]   (default: every detector)
 * Set DETECT_EVAL to read another JSONL file of {text, lang, len} items.
 */
import { LANGUAGE_CODES } from "../schemas/languages.ts";

interface Item {
  text: string;
  lang: string;
  len: "short" | "sentence" | "paragraph";
}

const LENGTHS = ["short", "sentence", "paragraph"] as const;
const SPEED_ROUNDS = 3;

function evalPath(): string | URL {
  return Deno.env.get("DETECT_EVAL") ??
    new URL("../../shared/eval/langid-dev.jsonl", import.meta.url);
}

async function readItems(): Promise<Item[]> {
  const text = await Deno.readTextFile(evalPath());
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

function percent(right: number, total: number): string {
  return total === 0 ? "–" : (100 * right / total).toFixed(1);
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
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

const items = await readItems();
const names = Deno.args.length > 0 ? Deno.args : detector.names;
for (const name of names) {
  const right = new Map<string, number>();
  const total = new Map<string, number>();
  let confident = 0;
  let confidentRight = 0;
  for (const item of items) {
    const result = detector.detect(item.text, name);
    const key = `${item.lang}/${item.len}`;
    total.set(key, (total.get(key) ?? 0) + 1);
    const ok = result.language === item.lang;
    if (ok) right.set(key, (right.get(key) ?? 0) + 1);
    if (result.confidence >= 0.9) {
      confident++;
      if (ok) confidentRight++;
    }
  }
  const accuracy = (lang: string, len: string) =>
    (right.get(`${lang}/${len}`) ?? 0) / Math.max(1, total.get(`${lang}/${len}`) ?? 0);
  console.log(`\n### ${name}\n`);
  console.log("| language | short | sentence | paragraph | all |");
  console.log("|---|---:|---:|---:|---:|");
  for (const lang of LANGUAGE_CODES) {
    const cells = LENGTHS.map((len) => (100 * accuracy(lang, len)).toFixed(1));
    const all = mean(LENGTHS.map((len) => accuracy(lang, len)));
    console.log(`| ${lang} | ${cells.join(" | ")} | ${(100 * all).toFixed(1)} |`);
  }
  const byLength = LENGTHS.map((len) => mean(LANGUAGE_CODES.map((lang) => accuracy(lang, len))));
  const macro = mean(byLength);
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
