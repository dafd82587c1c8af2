import assert from "node:assert/strict";
import { fieldPath } from "../../errors/contract_error.ts";
import {
  renderTranslationError,
  serviceError,
  TranslationServiceError,
} from "../../errors/translation_errors.ts";

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

Deno.test("a contract error is an Error to every catch and renderer, built without a stack", () => {
  const error = serviceError("invalid_request", "the frame is not valid JSON", { param: "texts" });
  assert.ok(error instanceof Error);
  assert.ok(error instanceof TranslationServiceError);
  assert.equal(String(error), "TranslationServiceError: the frame is not valid JSON");
  assert.equal(error.stack, undefined);
  const rendered = renderTranslationError(error);
  assert.equal(rendered.unexpected, false);
  assert.deepEqual(rendered.body.error, {
    code: "invalid_request",
    message: "the frame is not valid JSON",
    type: "invalid_request_error",
    param: "texts",
  });
});
