import assert from "node:assert/strict";
import { fieldPath, withoutStack } from "../../errors/contract_error.ts";
import { serviceError } from "../../errors/translation_errors.ts";
import { EngineBusyError } from "../../engines/engine_queue.ts";

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

Deno.test("expected errors carry no stack frames, and stack capture is back on afterwards", () => {
  const limit = Error.stackTraceLimit;
  const expected = [
    serviceError("invalid_request", "the frame is not valid JSON"),
    new EngineBusyError("local-llm", 1),
    withoutStack(() => new Error("a zod error read for its issues")),
  ];
  for (const error of expected) {
    assert.doesNotMatch(error.stack ?? "", /\n\s+at /, error.message);
  }
  assert.equal(Error.stackTraceLimit, limit);
  assert.match(new Error("unexpected").stack ?? "", /\n\s+at /, "other errors keep theirs");
});
