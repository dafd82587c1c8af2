import assert from "node:assert/strict";
import { eld } from "eld/medium";
import tableFile from "../../detection/data/eld_medium_table.json" with { type: "json" };
import { makeEldTable } from "../../detection/data/make_eld_table.ts";
import { EldTable } from "../../detection/eld_table.ts";
import { readLabelledItems } from "../../detection/accuracy.ts";
import { seededRandom } from "../support/seeded_random.ts";

const table = new EldTable();

/** eld's own answer, in the shape `EldTable.scores` gives. */
function eldScores(text: string): Array<{ language: string; score: number }> {
  return Object.entries(eld.detect(text).getScores() as Record<string, number>)
    .map(([language, score]) => ({ language, score }));
}

function assertSameScores(text: string): void {
  assert.deepEqual(table.scores(text), eldScores(text), JSON.stringify(text.slice(0, 200)));
}

Deno.test("the committed eld table is what make_eld_table.ts makes from the installed eld", () => {
  assert.deepEqual(tableFile, makeEldTable());
});

Deno.test("EldTable scores every text of the detection dev set exactly as eld does", async () => {
  const items = await readLabelledItems(
    new URL("../fixtures/eval/langid-dev.jsonl", import.meta.url),
  );
  assert.ok(items.length > 3000);
  for (const item of items) assertSameScores(item.text);
});

Deno.test("EldTable scores edge cases exactly as eld does", () => {
  const long = "a".repeat(75);
  const cases = [
    "",
    "   ",
    "1234 5678",
    "a",
    "ab",
    "abc",
    "abcd",
    "abcde",
    "Ça va? L'été dernier, c'était très bien.",
    // Words over eld's 70-byte cut: their last n-gram runs to the word's end and matches nothing.
    `${long} ${long} ${long}b`,
    `${"é".repeat(40)} und ${"é".repeat(40)}`,
    // Past the 350/380-byte cuts and the 1,000-unit cut.
    "Das ist ein Satz. ".repeat(80),
    "x".repeat(2000),
    "Привет, мир! Это тест. ".repeat(30),
    "这是一个测试。日本語のテキストです。",
    // Surrogate pairs, lone surrogates (eld reads the next unit anyway), emoji.
    "emoji 😀😀 here 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "lone \ud800 high and \udc00 low \ud83d",
    "\u0300",
    "don't won’t `quoted` words",
  ];
  for (const text of cases) assertSameScores(text);
});

Deno.test("EldTable scores generated texts exactly as eld does (2,000 texts, seed 7)", () => {
  const random = seededRandom(7);
  const pieces = [
    "the",
    "und",
    "le",
    "los",
    "yang",
    "của",
    "ng",
    "Straße",
    "été",
    "mañana",
    "ðð",
    "  ",
    " ",
    ". ",
    ", ",
    "'",
    "’",
    "-",
    "42",
    "д",
    "шч",
    "中文",
    "かな",
    "한",
    "ي",
    "ह",
    "😀",
    "\ud800",
    "\udfff",
    "\t",
    "\n",
    "é".repeat(30),
    "q".repeat(50),
  ];
  for (let n = 0; n < 2000; n++) {
    let text = "";
    const parts = Math.floor(random() * 120);
    for (let i = 0; i < parts; i++) text += pieces[Math.floor(random() * pieces.length)];
    assertSameScores(text);
  }
});
