import assert from "node:assert/strict";
import { joinChunks, splitText } from "../../../engines/builtin/sentence_chunks.ts";

const byLength = (limit: number) => (piece: string) => [...piece].length <= limit;

const ROUND_TRIPS = [
  { name: "short text", text: "Hello.", limit: 50, pieces: ["Hello."] },
  {
    name: "sentences packed up to the limit",
    text: "One. Two. Three.",
    limit: 9,
    pieces: ["One. Two.", "Three."],
  },
  {
    name: "outer whitespace and newlines kept",
    text: "  First one here.\nSecond one here. ",
    limit: 17,
    pieces: ["First one here.", "Second one here."],
  },
  {
    name: "a sentence too long is cut between words",
    text: "alpha beta gamma delta epsilon.",
    limit: 12,
    pieces: ["alpha beta", "gamma delta", "epsilon."],
  },
  {
    name: "Chinese sentences",
    text: "你好。世界很大。再见。",
    limit: 6,
    pieces: ["你好。", "世界很大。", "再见。"],
  },
];

for (const { name, text, limit, pieces } of ROUND_TRIPS) {
  Deno.test(`splitText cuts ${name} and joinChunks restores the layout`, () => {
    const chunked = splitText(text, "en", byLength(limit));
    assert.deepEqual(chunked.chunks.map((chunk) => chunk.text), pieces);
    assert.equal(joinChunks(chunked, chunked.chunks.map((chunk) => chunk.text)), text);
  });
}

Deno.test("joinChunks puts translations in the original separators", () => {
  const chunked = splitText(" A. B.\n", "en", byLength(2));
  assert.equal(joinChunks(chunked, ["x", "y"]), " x y\n");
});

Deno.test("splitText accepts a language code Intl does not know", () => {
  assert.equal(splitText("One. Two.", "eng_Latn", byLength(4)).chunks.length, 2);
});
