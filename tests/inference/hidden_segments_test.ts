import assert from "node:assert/strict";
import { type HiddenSegment, HiddenSegmentFilter } from "../../inference/hidden_segments.ts";

const THINK: HiddenSegment = { open: "<think>", close: "</think>" };

/** name → segments, streamed pieces, visible text after flush. */
const CASES: Array<[string, HiddenSegment[], string[], string]> = [
  ["no segments: every piece passes", [], ["a<think>", "b"], "a<think>b"],
  ["a thought in one piece is left out", [THINK], ["a<think>x</think>b"], "ab"],
  ["markers split across pieces are found", [THINK], ["a<th", "ink>x</th", "ink>b"], "ab"],
  ["a marker's start that goes elsewhere is kept", [THINK], ["a<th", "e end"], "a<the end"],
  ["text held back at the end is flushed", [THINK], ["a<th"], "a<th"],
  ["an unclosed thought is dropped", [THINK], ["a<think>x", "y"], "a"],
  [
    "a segment opened by the template ends at its close",
    [
      { open: "", close: "</think>", openAtStart: true },
    ],
    ["x y</th", "ink>b"],
    "b",
  ],
  ["two thoughts and two kinds", [THINK, { open: "[c]", close: "[/c]" }], [
    "1<think>a</think>2[c]b[/c]3",
  ], "123"],
];

for (const [name, segments, pieces, expected] of CASES) {
  Deno.test(`HiddenSegmentFilter: ${name}`, () => {
    const filter = new HiddenSegmentFilter(segments);
    const visible = pieces.map((piece) => filter.push(piece)).join("") + filter.flush();
    assert.equal(visible, expected);
  });
}
