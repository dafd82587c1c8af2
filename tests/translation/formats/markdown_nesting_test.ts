import assert from "node:assert/strict";
import { MAX_NESTING, overNestedLine } from "../../../translation/formats/markdown_nesting.ts";

const lists = (count: number, marker = "- ") => marker.repeat(count) + "text";

Deno.test("overNestedLine finds the first line opening more lists than the limit", () => {
  assert.equal(MAX_NESTING, 32);
  assert.equal(overNestedLine(lists(32)), undefined);
  assert.equal(overNestedLine(`a\n\n${lists(33)}\n${lists(40)}`), 3);
  // Every list and block quote marker counts, after indentation, CRLF or not.
  assert.equal(overNestedLine(`a\r\n${lists(33, "1. ")}\r\n`), 2);
  assert.equal(overNestedLine("* ".repeat(17) + lists(16, "+\t")), 1);
  assert.equal(overNestedLine("* ".repeat(16) + lists(16, "+\t")), undefined);
  assert.equal(overNestedLine("  > " + lists(16, "> 2) ")), 1);
  assert.equal(overNestedLine("> ".repeat(32) + "quoted"), undefined);
  assert.equal(overNestedLine(">".repeat(33) + "quoted"), 1);
  // Quotes count before a rule; the rule's dashes do not.
  assert.equal(overNestedLine("> ".repeat(30) + "- - - - - -"), undefined);
  assert.equal(overNestedLine("> ".repeat(33) + "- - -"), 1);
});

Deno.test("overNestedLine leaves rules, text and code-like lines alone", () => {
  // A thematic break of any length, with spaces or tabs, is a rule; a marker must be followed
  // by white space or the line's end; numbers of more than 9 digits are no list.
  assert.equal(
    overNestedLine(`${"- ".repeat(60)}-\n${"*\t".repeat(60)}\n${"_ ".repeat(60)}\r\n`),
    undefined,
  );
  assert.equal(overNestedLine("-x ".repeat(60)), undefined);
  assert.equal(overNestedLine("-".repeat(60) + "text"), undefined);
  assert.equal(overNestedLine("1234567890. ".repeat(60)), undefined);
  assert.equal(overNestedLine("text - ".repeat(60)), undefined);
  // Mixed markers are lists, even when the line ends in what would be a rule.
  assert.equal(overNestedLine("- * ".repeat(20) + "* * *"), 1);
});
