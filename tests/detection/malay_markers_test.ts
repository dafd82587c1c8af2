import assert from "node:assert/strict";
import { countMalayEvidence } from "../../detection/malay_markers.ts";

const MARKER_CASES: ReadonlyArray<readonly [string, "id" | "ms"]> = [
  ["Saya tidak punya uang karena bisa terlambat.", "id"],
  ["Saya tiada wang kerana boleh terlambat.", "ms"],
  ["Universitas itu menerima 1.500 mahasiswa.", "id"],
  ["Universiti itu menerima 1,500 pelajar.", "ms"],
  ["Dia dirawat di rumah sakit.", "id"],
  ["Pilihan raya akan diadakan tahun depan.", "ms"],
  ["Apakah Anda sudah makan?", "id"],
  ["Mereka mendirikan pabrik di dekat danau.", "id"],
  ["Mereka menubuhkan kilang berhampiran tasik.", "ms"],
];

for (const [text, expected] of MARKER_CASES) {
  Deno.test(`countMalayEvidence leans ${expected} for "${text}"`, () => {
    const { indonesian, malay } = countMalayEvidence(text);
    assert.ok(
      expected === "id" ? indonesian > malay : malay > indonesian,
      `${indonesian}/${malay}`,
    );
  });
}

Deno.test("countMalayEvidence reads a time such as 23.35 as neither standard", () => {
  assert.deepEqual(countMalayEvidence("pada pukul 23.35"), { indonesian: 0, malay: 0 });
});
