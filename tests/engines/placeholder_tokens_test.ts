import assert from "node:assert/strict";
import {
  looksLikePlaceholder,
  normalizePlaceholders,
  placeholderLookalikes,
  placeholderProblem,
  placeholderSequence,
  textBetweenPlaceholders,
  withoutPlaceholders,
} from "../../engines/placeholder_tokens.ts";

Deno.test("placeholderSequence lists canonical tokens in order", () => {
  assert.deepEqual(placeholderSequence("<x1>a</x1> <x2/> b"), ["<x1>", "</x1>", "<x2/>"]);
});

Deno.test("normalizePlaceholders rewrites loose spellings", () => {
  assert.equal(normalizePlaceholders("< X1 >a</ x1 ><x2 />"), "<x1>a</x1><x2/>");
});

const PROBLEMS = [
  { name: "kept", answer: "<x1>a</x1> <x2/>", problem: undefined },
  { name: "dropped", answer: "<x1>a</x1>", problem: "placeholders missing: 1 of 3" },
  { name: "duplicated", answer: "<x1>a</x1> <x2/><x2/>", problem: "placeholders duplicated: 1" },
  { name: "invented", answer: "<x1>a</x1> <x2/><x3/>", problem: "placeholders invented: 1" },
  { name: "reordered", answer: "<x2/> <x1>a</x1>", problem: "placeholders reordered" },
];

for (const { name, answer, problem } of PROBLEMS) {
  Deno.test(`placeholderProblem reports placeholders ${name}`, () => {
    assert.equal(placeholderProblem("<x1>b</x1> <x2/>", answer), problem);
  });
}

Deno.test("placeholderLookalikes finds every lookalike after a looksLikePlaceholder check", () => {
  assert.equal(looksLikePlaceholder("a long sentence that ends in < X1 >"), true);
  assert.deepEqual(placeholderLookalikes("<x1> and <x2/>"), [[0, 4], [9, 14]]);
});

Deno.test("textBetweenPlaceholders gives the text between tokens kept once each, in order", () => {
  const expected = ["<x1>", "</x1>", "<x2/>"];
  assert.deepEqual(textBetweenPlaceholders(expected, "A < X1 >b</x1> c<x2 />"), [
    "A ",
    "b",
    " c",
    "",
  ]);
  for (const broken of ["A <x1>b</x1> c", "A <x1>b</x1><x2/><x2/>", "A <x2/><x1>b</x1>"]) {
    assert.equal(textBetweenPlaceholders(expected, broken), undefined, broken);
  }
});

Deno.test("withoutPlaceholders drops invented tokens, leaving a space only where one was", () => {
  assert.equal(withoutPlaceholders("Hallo <x9/>"), "Hallo");
  assert.equal(withoutPlaceholders("Hallo < X2 > Welt</x2>"), "Hallo Welt");
  assert.equal(withoutPlaceholders("你<x1/>好"), "你好");
  assert.equal(withoutPlaceholders("a <b> c"), "a <b> c");
});
