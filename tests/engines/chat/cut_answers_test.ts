/** Which bodies that are not JSON read as a JSON document cut short (asked again, not a 500). */
import assert from "node:assert/strict";
import { endsMidJson } from "../../../engines/chat/cut_answers.ts";

const CASES = [
  {
    name: "an object cut in a string",
    text: '{"choices": [{"message": {"content": "{\\"1',
    cut: true,
  },
  { name: "an object cut after a colon", text: '{"model": "x", "message": ', cut: true },
  { name: "an array cut after a comma", text: "[1, 2,", cut: true },
  { name: "a pretty-printed object cut", text: '{\n  "done": false,\n  "message": {\n', cut: true },
  { name: "an HTML page", text: "<html><title>502 Bad Gateway</title></html>", cut: false },
  { name: "plain text", text: "upstream connect error", cut: false },
  { name: "a closer that does not match", text: '{"a": [1}', cut: false },
  { name: "a whole object with text after it", text: '{"a": 1} trailing {', cut: false },
  { name: "NDJSON lines, the first broken", text: '{"mess\n{"message": {}}\n', cut: false },
  { name: "an empty body", text: "", cut: false },
];

for (const { name, text, cut } of CASES) {
  Deno.test(`endsMidJson reads ${name} as ${cut ? "cut short" : "something else"}`, () => {
    assert.equal(endsMidJson(text), cut);
  });
}
