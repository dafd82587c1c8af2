import assert from "node:assert/strict";
import { loadLanguageDetector } from "../../detection/language_detector.ts";
import { LANGUAGE_CODES } from "../../schemas/languages.ts";

// CI keeps shared/ beside the clone; a missing file must fail the test, never skip it.
const DEV_SET = new URL("../../../shared/eval/langid-dev.jsonl", import.meta.url);

interface Item {
  text: string;
  lang: string;
  len: "short" | "sentence" | "paragraph";
}

/** Floors a few points under the quality bar, so a regression fails while noise does not. */
const FLOORS = {
  macro: 0.94,
  short: 0.88,
  sentence: 0.97,
  paragraph: 0.98,
  idMsSentence: 0.88,
  chineseSentence: 0.96,
  precisionAtHighConfidence: 0.97,
} as const;

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

Deno.test("ensemble detector stays above the dev-set accuracy floors", async () => {
  const text = await Deno.readTextFile(DEV_SET);
  const items: Item[] = text.split("\n").filter((line) => line.trim() !== "").map((line) =>
    JSON.parse(line)
  );
  assert.ok(items.length > 3000, `dev set has only ${items.length} items`);
  const detector = await loadLanguageDetector();

  const right = new Map<string, number>();
  const total = new Map<string, number>();
  let confident = 0;
  let confidentRight = 0;
  for (const item of items) {
    const result = detector.detect(item.text);
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
    (right.get(`${lang}/${len}`) ?? 0) / (total.get(`${lang}/${len}`) ?? 1);
  const byLength = (len: string) => mean(LANGUAGE_CODES.map((lang) => accuracy(lang, len)));
  const short = byLength("short");
  const sentence = byLength("sentence");
  const paragraph = byLength("paragraph");

  assert.ok(mean([short, sentence, paragraph]) >= FLOORS.macro, `macro ${short}`);
  assert.ok(short >= FLOORS.short, `short ${short}`);
  assert.ok(sentence >= FLOORS.sentence, `sentence ${sentence}`);
  assert.ok(paragraph >= FLOORS.paragraph, `paragraph ${paragraph}`);
  for (const lang of ["id", "ms"]) {
    assert.ok(accuracy(lang, "sentence") >= FLOORS.idMsSentence, `${lang} sentence`);
  }
  for (const lang of ["zh-Hans", "zh-Hant"]) {
    assert.ok(accuracy(lang, "sentence") >= FLOORS.chineseSentence, `${lang} sentence`);
  }
  assert.ok(
    confidentRight / confident >= FLOORS.precisionAtHighConfidence,
    `${confidentRight} of ${confident} right at confidence >= 0.9`,
  );
});
