import assert from "node:assert/strict";
import type { TranslationItem } from "../../engines/engine.ts";
import { translateSegments } from "../../translation/segment_translation.ts";
import {
  canonicalLanguage,
  finishItems,
  keepAlternatives,
  planItems,
  type PlanRequest,
} from "../../translation/plan.ts";

const DE = { language: "de", confidence: 0.9 };
const EN = { language: "en", confidence: 0.8 };
const UND = { language: "und", confidence: 0 };

const ROUTE_CASES: {
  name: string;
  text: string;
  detected: { language: string; confidence: number };
  request: Omit<PlanRequest, "preserveFormatting">;
  route: string;
  source: string;
  pieces?: string[];
}[] = [
  {
    name: "another language",
    text: "Guten Tag",
    detected: DE,
    request: { target: "en" },
    route: "engine",
    source: "de",
    pieces: ["Guten Tag"],
  },
  {
    name: "already the target",
    text: "Good day",
    detected: EN,
    request: { target: "en" },
    route: "unchanged",
    source: "en",
  },
  {
    name: "no letters",
    text: "123 😀",
    detected: UND,
    request: { target: "en" },
    route: "unchanged",
    source: "und",
  },
  {
    name: "blank with an explicit source",
    text: " \n ",
    detected: UND,
    request: { source: "de", target: "en" },
    route: "unchanged",
    source: "de",
  },
  {
    name: "explicit source wins over detection",
    text: "Good day",
    detected: EN,
    request: { source: "de", target: "en" },
    route: "engine",
    source: "de",
    pieces: ["Good day"],
  },
  {
    name: "explicit source equal to target",
    text: "Guten Tag",
    detected: DE,
    request: { source: "en", target: "en" },
    route: "unchanged",
    source: "en",
  },
  {
    name: "source auto detects",
    text: "Guten Tag",
    detected: DE,
    request: { source: "auto", target: "en" },
    route: "engine",
    source: "de",
    pieces: ["Guten Tag"],
  },
  {
    name: "outer whitespace cut off",
    text: "  Guten Tag\n",
    detected: DE,
    request: { target: "en" },
    route: "engine",
    source: "de",
    pieces: ["Guten Tag"],
  },
  {
    name: "a region tag of the target",
    text: "Salut",
    detected: { language: "fr-CA", confidence: 0.7 },
    request: { target: "fr" },
    route: "unchanged",
    source: "fr",
  },
  {
    name: "a language outside the 16",
    text: "Sabahınız xeyir",
    detected: { language: "az", confidence: 0.6 },
    request: { target: "en" },
    route: "engine",
    source: "az",
    pieces: ["Sabahınız xeyir"],
  },
  {
    name: "Simplified to Traditional",
    text: "汉语",
    detected: { language: "zh-Hans", confidence: 0.9 },
    request: { target: "zh-Hant" },
    route: "script",
    source: "zh-Hans",
    pieces: ["汉语"],
  },
  {
    name: "zh-TW to Simplified",
    text: "漢語",
    detected: { language: "zh-TW", confidence: 0.9 },
    request: { target: "zh-Hans" },
    route: "script",
    source: "zh-Hant",
    pieces: ["漢語"],
  },
];

Deno.test("planItems routes each item by the one item policy", () => {
  for (const row of ROUTE_CASES) {
    const [item] = planItems([row.text], () => row.detected, {
      ...row.request,
      preserveFormatting: false,
    });
    assert.equal(item.route, row.route, row.name);
    assert.equal(item.source, row.source, row.name);
    const pieces = item.cut?.segments.filter((segment) => segment.translatable)
      .map((segment) => segment.text);
    assert.deepEqual(pieces, row.pieces, row.name);
  }
});

Deno.test("the engine receives only non-empty pieces, each with its canonical source", async () => {
  const planned = planItems(
    ["Hallo\n\n  Welt  ", "   ", "Good day", "漢語"],
    (text) =>
      text.startsWith("Hallo")
        ? { language: "de-AT", confidence: 1 }
        : text === "漢語"
        ? { language: "zh-TW", confidence: 1 }
        : text.trim()
        ? EN
        : UND,
    { target: "en", preserveFormatting: true },
  );
  const sent: TranslationItem[] = [];
  const toEngine = planned.filter((item) => item.route === "engine");
  await translateSegments(
    toEngine.map((item) => ({ cut: item.cut!, source: item.source })),
    (items) => {
      sent.push(...items);
      return Promise.resolve(
        items.map((item) => ({ ...item, confidence: null, alternatives: [] })),
      );
    },
    { once: false },
  );
  assert.deepEqual(sent, [
    { text: "Hallo", source: "de" },
    { text: "Welt", source: "de" },
    { text: "漢語", source: "zh-Hant" },
  ]);
});

Deno.test("finishItems takes the engine's items, changes the Chinese script locally and keeps detection confidence for unchanged items", () => {
  const planned = planItems(
    ["  Hallo  ", "Good day", "汉语软件"],
    (text) =>
      text.includes("Hallo")
        ? DE
        : text === "Good day"
        ? EN
        : { language: "zh-Hans", confidence: 0.5 },
    { target: "zh-Hant", preserveFormatting: false },
  );
  assert.deepEqual(planned.map((item) => item.route), ["engine", "engine", "script"]);
  const results = finishItems(planned, "zh-Hant", [
    {
      text: "  你好  ",
      confidence: 0.4,
      alternatives: ["您好", "  你好  ", "", "哈囉", "嗨", "喂"],
    },
    { text: "日安", confidence: null, alternatives: [] },
  ]);
  assert.deepEqual(results, [
    { text: "  你好  ", confidence: 0.4, alternatives: ["您好", "哈囉", "嗨"] },
    { text: "日安", confidence: 0.8, alternatives: [] },
    { text: "漢語軟件", confidence: 0.5, alternatives: [] },
  ]);
});

const ALTERNATIVE_CASES: { name: string; text: string; candidates: string[]; kept: string[] }[] = [
  { name: "none", text: "a", candidates: [], kept: [] },
  { name: "the text itself is dropped", text: "a", candidates: ["a", "b"], kept: ["b"] },
  { name: "duplicates once", text: "a", candidates: ["b", "b", "c"], kept: ["b", "c"] },
  { name: "blank dropped", text: "a", candidates: [" ", "", "b"], kept: ["b"] },
  { name: "capped at 3", text: "a", candidates: ["b", "c", "d", "e"], kept: ["b", "c", "d"] },
];

Deno.test("keepAlternatives keeps distinct, non-blank alternatives other than the text, at most 3", () => {
  for (const row of ALTERNATIVE_CASES) {
    assert.deepEqual(keepAlternatives(row.text, row.candidates), row.kept, row.name);
  }
});

const CANONICAL_CASES = [
  ["zh-TW", "zh-Hant"],
  ["zh-CN", "zh-Hans"],
  ["zh", "zh-Hans"],
  ["zh-Hant-HK", "zh-Hant"],
  ["fr-CA", "fr"],
  ["EN", "en"],
  ["tl", "fil"],
  ["ru", "ru"],
  ["pt-BR", "pt"],
  ["und", "und"],
] as const;

Deno.test("canonicalLanguage reads each code in its canonical form", () => {
  for (const [input, expected] of CANONICAL_CASES) {
    assert.equal(canonicalLanguage(input), expected, input);
  }
});
