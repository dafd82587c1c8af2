/**
 * Emphasis written with `_` in a translation into a language without spaces: CommonMark lets
 * `_` open or close emphasis only at a word's edge, so `これは_とても_重要です` renders the
 * underscores as text. Where the translation glues the marker to a letter, the pair is written
 * with `*`, which opens and closes inside a word (`**` for `__`), or as HTML where `*` cannot
 * either; elsewhere it stays as written.
 */
import assert from "node:assert/strict";
import { fromMarkdown } from "mdast-util-from-markdown";
import { translateThrough } from "../../support/format_requests.ts";

const MARKDOWN = { format: "markdown", mode: "document" };

/** The emphasis and strong nodes' texts, as a reader sees them. */
function emphasised(markdown: string): string[] {
  const found: string[] = [];
  const walk = (node: { type: string; value?: string; children?: unknown[] }) => {
    if (node.type === "emphasis" || node.type === "strong") {
      found.push(`${node.type}:${textOf(node)}`);
    }
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(fromMarkdown(markdown) as never);
  return found;
}

function textOf(node: { value?: string; children?: unknown[] }): string {
  return node.value ?? (node.children ?? []).map((child) => textOf(child as never)).join("");
}

Deno.test("markdown: _emphasis_ glued to the letters of a Japanese or Chinese translation is written with *", async () => {
  const items = [
    "This is _very_ important.",
    "This is __very__ important.",
    "Read _the guide_, then __start__.",
    'It is **"important"** here.',
  ];
  const answers: Record<string, string> = {
    "This is <x1>very</x1> important.": "これは<x1>とても</x1>重要です。",
    "Read <x1>the guide</x1>, then <x2>start</x2>.": "先读<x1>指南</x1>，然后<x2>开始</x2>。",
    // `*` cannot open between a letter and punctuation either: HTML can.
    'It is <x1>"important"</x1> here.': "这是<x1>“重要”</x1>的。",
  };
  const { texts } = await translateThrough(items, MARKDOWN, (text) => answers[text] ?? text);
  assert.deepEqual(texts, [
    "これは*とても*重要です。",
    "これは**とても**重要です。",
    "先读*指南*，然后**开始**。",
    "这是<strong>“重要”</strong>的。",
  ]);
  assert.deepEqual(texts.map(emphasised), [
    ["emphasis:とても"],
    ["strong:とても"],
    ["emphasis:指南", "strong:开始"],
    [],
  ]);
});

Deno.test("markdown: _emphasis_ that still opens and closes where the translation puts it stays _", async () => {
  const items = ["This is _very_ important.", "A snake_case name and _this_."];
  const { texts } = await translateThrough(
    items,
    MARKDOWN,
    (text) => text.replace("This is", "Das ist").replace("and", "und"),
  );
  assert.deepEqual(texts, ["Das ist _very_ important.", "A snake_case name und _this_."]);
});
