import assert from "node:assert/strict";
import { normaliseSpans, spansInText } from "../../../translation/glossary/nfc_offsets.ts";

/** Text as written, spans in its NFC form, and the same spans in the text (undefined: none). */
const CARRIED: {
  name: string;
  text: string;
  spans: { start: number; end: number }[];
  expected: { start: number; end: number }[] | undefined;
}[] = [
  {
    name: "text already NFC",
    text: "the database",
    spans: [{ start: 4, end: 12 }],
    expected: [{ start: 4, end: 12 }],
  },
  {
    name: "a decomposed term and text after it",
    text: "cafe\u0301 db",
    spans: [{ start: 0, end: 4 }, { start: 5, end: 7 }],
    expected: [{ start: 0, end: 5 }, { start: 6, end: 8 }],
  },
  {
    name: "Hangul written in conjoining jamo",
    text: "\u1100\u1161\u11a8 db",
    spans: [{ start: 2, end: 4 }],
    expected: [{ start: 4, end: 6 }],
  },
  {
    name: "a span ending inside one character's marks",
    text: "a\u0301\u0323x",
    spans: [{ start: 0, end: 1 }],
    expected: undefined,
  },
];

for (const { name, text, spans, expected } of CARRIED) {
  Deno.test(`spansInText carries NFC offsets back: ${name}`, () => {
    assert.deepEqual(spansInText(text, spans), expected);
    if (expected === undefined) return;
    const normal = text.normalize("NFC");
    for (const [i, span] of expected.entries()) {
      assert.equal(
        text.slice(span.start, span.end).normalize("NFC"),
        normal.slice(spans[i].start, spans[i].end),
      );
    }
  });
}

Deno.test("normaliseSpans writes only the chosen spans in NFC and moves every span", () => {
  const text = "cafe\u0301 and Zo\u0308e";
  const spans = [{ start: 0, end: 5, nfc: true }, { start: 10, end: 14, nfc: false }];
  const result = normaliseSpans(text, spans, (span) => span.nfc);
  assert.equal(result.text, "caf\u00e9 and Zo\u0308e");
  assert.deepEqual(result.spans.map(({ start, end }) => result.text.slice(start, end)), [
    "caf\u00e9",
    "Zo\u0308e",
  ]);
});
