import assert from "node:assert/strict";
import { loadLanguageDetector } from "../../detection/language_detector.ts";
import { mean, readLabelledItems, scoreDetector } from "../../detection/accuracy.ts";

// The dev split lives in the repository (licence in its README); a missing file fails, never skips.
const DEV_SET = new URL("../fixtures/eval/langid-dev.jsonl", import.meta.url);

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

Deno.test("ensemble detector stays above the dev-set accuracy floors", async () => {
  const items = await readLabelledItems(DEV_SET);
  assert.ok(items.length > 3000, `dev set has only ${items.length} items`);
  const detector = await loadLanguageDetector();
  const { accuracy, byLength, confident, confidentRight } = scoreDetector(detector, items);
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
