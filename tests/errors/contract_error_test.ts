import assert from "node:assert/strict";
import { fieldPath } from "../../errors/contract_error.ts";

const PATH_CASES: { path: PropertyKey[]; expected: string | null }[] = [
  { path: [], expected: null },
  { path: ["target"], expected: "target" },
  { path: ["options", "foo"], expected: "options.foo" },
  { path: ["texts", 3], expected: "texts[3]" },
  { path: ["messages", 0, "content"], expected: "messages[0].content" },
  { path: ["dictionaries", 0, "entries"], expected: "dictionaries[0].entries" },
];

Deno.test("fieldPath writes every field in the one style of both services", () => {
  for (const row of PATH_CASES) assert.equal(fieldPath(row.path), row.expected, row.expected ?? "");
});
