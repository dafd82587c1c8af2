import assert from "node:assert/strict";
import lexiconFile from "../../detection/data/malay_lexicon.json" with { type: "json" };
import { malayLexicon } from "../../detection/malay_lexicon.ts";
import { countMalayEvidence } from "../../detection/malay_markers.ts";

Deno.test("malayLexicon holds words of only one standard, and neither holds shared words", () => {
  const { indonesianOnly, malayOnly } = malayLexicon();
  for (const word of ["satwa", "napi", "mengupayakan"]) {
    assert.equal(indonesianOnly.has(word), true, word);
    assert.equal(malayOnly.has(word), false, word);
  }
  for (const word of ["pemerhatian", "laluan", "stokin"]) {
    assert.equal(malayOnly.has(word), true, word);
    assert.equal(indonesianOnly.has(word), false, word);
  }
  for (const word of ["dan", "yang", "tidak", "kerana", "karena", "", "not-a-word-anywhere"]) {
    assert.equal(indonesianOnly.has(word) || malayOnly.has(word), false, word);
  }
});

Deno.test("malayLexicon's data names its source, licence and generator", () => {
  assert.match(lexiconFile.licence, /^Apache-2\.0/);
  assert.match(lexiconFile.source, /tessdata_fast/);
  assert.equal(lexiconFile.generator, "detection/data/make_malay_lexicon.ts");
  const words = lexiconFile.malay_only.split(" ");
  assert.ok(words.length > 10_000, `${words.length} Malay-only words`);
  assert.ok(
    words.every((word) => word === word.toLowerCase() && /^\p{L}+(?:-\p{L}+)*$/u.test(word)),
  );
});

Deno.test("countMalayEvidence counts each lexicon word once, beside the hand-written markers", () => {
  assert.deepEqual(countMalayEvidence("pemerhatian dan paderi"), { indonesian: 0, malay: 2 });
  assert.deepEqual(countMalayEvidence("satwa dan napi"), { indonesian: 2, malay: 0 });
});
