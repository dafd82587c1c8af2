import assert from "node:assert/strict";
import { DUPLICATED, parseJsonMarkingDuplicates } from "../../../engines/chat/strict_json.ts";

/** JSON without a repeated key: read exactly as JSON.parse reads it. */
const PLAIN_JSON = [
  { name: "an object of ids", text: '{"1": "Hello", "2": "World"}' },
  { name: "nested arrays and objects", text: '[{"id": 1, "text": "a"}, [], {}, [[{"x": [1]}]]]' },
  { name: "escapes and quotes in strings", text: '{"a\\"b": "c\\\\\\"d\\u00e9\\n", "k": "}"}' },
  { name: "numbers and literals", text: '{"n": -1.5e3, "t": true, "f": false, "z": null}' },
  { name: "whitespace everywhere", text: ' \n{ "a" :\t[ 1 , 2 ] ,\r\n"b" : { } } ' },
  { name: "scalars at the top", text: '"text"' },
  { name: "the same key in sibling objects", text: '[{"1": "a"}, {"1": "b"}]' },
];

for (const { name, text } of PLAIN_JSON) {
  Deno.test(`parseJsonMarkingDuplicates reads ${name} as JSON.parse does`, () => {
    assert.deepEqual(
      JSON.parse(JSON.stringify(parseJsonMarkingDuplicates(text))),
      JSON.parse(text),
    );
  });
}

Deno.test("parseJsonMarkingDuplicates marks an id written twice, wherever the repeat is", () => {
  const parsed = parseJsonMarkingDuplicates('{"1": "a", "2": "b", "1": "WRONG", "1": "c"}');
  assert.deepEqual({ ...parsed as object }, { 1: DUPLICATED, 2: "b" });
});

Deno.test("parseJsonMarkingDuplicates marks a key repeated in a nested object only there", () => {
  const parsed = parseJsonMarkingDuplicates(
    '{"1": {"text": "a", "text": "b"}, "2": {"text": "c"}}',
  );
  const entries = parsed as Record<string, Record<string, unknown>>;
  assert.equal(entries["1"].text, DUPLICATED);
  assert.equal(entries["2"].text, "c");
});

Deno.test("parseJsonMarkingDuplicates keeps __proto__ an own key, as JSON.parse does", () => {
  const parsed = parseJsonMarkingDuplicates('{"__proto__": {"polluted": true}}') as object;
  assert.deepEqual(Object.keys(parsed), ["__proto__"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("parseJsonMarkingDuplicates rejects what JSON.parse rejects", () => {
  for (const text of ['{"1": "a",}', '{"1": "a"', "", "{'1': 'a'}"]) {
    assert.throws(() => parseJsonMarkingDuplicates(text), SyntaxError);
  }
});
