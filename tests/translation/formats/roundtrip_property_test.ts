/**
 * Property test: random HTML and Markdown documents generated from a small grammar (nested
 * blocks and inline markup, entities, comments, code, never-translated islands, malformed
 * pieces) come back byte for byte through a passthrough engine, and keep their skeleton through
 * an engine that drops every placeholder. Seeded, so a failure names the seed that reproduces it.
 */
import assert from "node:assert/strict";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { markdownFormat } from "../../../translation/formats/markdown.ts";
import { structureOf } from "../../support/document_structure.ts";
import { dropPlaceholders, translateItem } from "../../support/format_engines.ts";
import { seededRandom } from "../../support/seeded_random.ts";

const DOCUMENTS_PER_FORMAT = 150;

type Pick = <T>(options: readonly T[]) => T;

const WORDS = [
  "the",
  "Haus",
  "café",
  "naïve",
  "über",
  "Straße",
  "東京",
  "déjà",
  "vu",
  "x",
  "reads",
  "42",
];
const SPACES = [" ", " ", " ", "  ", "\n", "\t", " \n  "];

function words(pick: Pick, count: number): string {
  return Array.from({ length: count }, () => pick(WORDS)).join(pick(SPACES));
}

function htmlInline(pick: Pick, depth: number): string {
  const choices: (() => string)[] = [
    () => words(pick, 1 + Math.floor(pick([1, 2, 3, 4]))),
    () => pick(["&amp;", "&nbsp;", "&eacute;", "&#169;", "&copy", "& "]),
    () => "<br>",
    () => `<img src="a.png" alt="${words(pick, 2)}">`,
    () => `<code>${words(pick, 2)} &lt;x&gt;</code>`,
    () => pick(["a < b", "x > y", "<3"]),
  ];
  if (depth < 3) {
    const inner = () => htmlInlines(pick, depth + 1);
    choices.push(
      () => `<b>${inner()}</b>`,
      () => `<a href="/p?a=1&amp;b=2" title="${words(pick, 2)}">${inner()}</a>`,
      () => `<em class=x>${inner()}</em>`,
      () => `<span translate="no">${inner()}</span>`,
      () => `<i>${inner()}`, // unclosed
      () => `<span class="notranslate">${inner()}<span translate="yes">${inner()}</span></span>`,
    );
  }
  return pick(choices)();
}

function htmlInlines(pick: Pick, depth: number): string {
  return Array.from({ length: pick([1, 2, 3]) }, () => htmlInline(pick, depth)).join(pick(SPACES));
}

function htmlBlock(pick: Pick, depth: number): string {
  const choices: (() => string)[] = [
    () => `<p>${htmlInlines(pick, 0)}</p>`,
    () => `<h2 id=t>${htmlInlines(pick, 1)}</h2>`,
    () => `<ul>\n  <li>${htmlInlines(pick, 1)}</li>\n  <li>${htmlInlines(pick, 1)}\n</ul>`,
    () => `<pre>${words(pick, 3)}\n  ${words(pick, 2)}</pre>`,
    () => `<table><tr><td>${htmlInlines(pick, 1)}</td><td>${words(pick, 1)}</td></tr></table>`,
    () => `<!-- ${words(pick, 2)} -->`,
    () => `<script>if (a < b) { x = "${words(pick, 1)}"; }</script>`,
    () => `<input placeholder='${words(pick, 2)}' value="${words(pick, 1)}">`,
    () => `</div>`, // stray end tag
    () => htmlInlines(pick, 0),
  ];
  if (depth < 2) {
    choices.push(() =>
      `<div class="c" aria-label="${words(pick, 2)}">\n${htmlBlocks(pick, depth + 1)}\n</div>`
    );
  }
  return pick(choices)();
}

function htmlBlocks(pick: Pick, depth: number): string {
  return Array.from({ length: pick([1, 2, 3, 4]) }, () => htmlBlock(pick, depth)).join(
    pick(["\n", "", "\n\n"]),
  );
}

function mdInline(pick: Pick, depth: number): string {
  const choices: (() => string)[] = [
    () => words(pick, pick([1, 2, 3])).replace(/\s+/g, " "),
    () => "`" + words(pick, 2).replace(/\s+/g, " ") + "`",
    () => `$${pick(["x^2", "a_b", "\\pi"])}$`,
    () => pick(["\\*", "&amp;", "&copy;", "https://example.org/a_b", "<b>bold</b>"]),
    () => `![${pick(WORDS)} ${pick(WORDS)}](img.png "T")`,
  ];
  if (depth < 2) {
    const inner = () => mdInlines(pick, depth + 1);
    choices.push(
      () => `*${inner()}*`,
      () => `__${inner()}__`,
      () => `~~${inner()}~~`,
      () => `[${inner()}](https://example.org/x "Title")`,
    );
  }
  return pick(choices)();
}

function mdInlines(pick: Pick, depth: number): string {
  return Array.from({ length: pick([1, 2, 3]) }, () => mdInline(pick, depth)).join(" ");
}

function mdBlock(pick: Pick): string {
  return pick<() => string>([
    () => mdInlines(pick, 0),
    () => `${mdInlines(pick, 0)}\n${mdInlines(pick, 0)}`,
    () => `${"#".repeat(pick([1, 2, 3]))} ${mdInlines(pick, 1)}`,
    () => `- ${mdInlines(pick, 1)}\n- [ ] ${mdInlines(pick, 1)}\n  - ${mdInlines(pick, 1)}`,
    () => `1. ${mdInlines(pick, 1)}\n2. ${mdInlines(pick, 1)}`,
    () => `> ${mdInlines(pick, 1)}\n> ${mdInlines(pick, 1)}`,
    () => '```js\nconst a = "' + words(pick, 2) + '";\n```',
    () => `    ${words(pick, 3).replace(/\s+/g, " ")}`,
    () => `| a | ${pick(WORDS)} |\n|:--|--:|\n| ${mdInlines(pick, 1)} | ${pick(WORDS)} |`,
    () => `<div title="${pick(WORDS)}">${words(pick, 2)} <b>${pick(WORDS)}</b></div>`,
    () => "$$\nE = mc^2\n$$",
    () => "***",
    () => `[ref]: https://example.org/ref "${pick(WORDS)}"`,
  ])();
}

function markdownDocument(pick: Pick): string {
  const front = pick([true, false]) ? `---\ntitle: ${pick(WORDS)}\n---\n\n` : "";
  const blocks = Array.from({ length: pick([1, 2, 3, 4, 5]) }, () => mdBlock(pick));
  return front + blocks.join(pick(["\n\n", "\n\n\n"])) + pick(["", "\n"]);
}

const FORMATS = [
  { name: "html", format: htmlFormat, generate: (pick: Pick) => htmlBlocks(pick, 0) },
  { name: "markdown", format: markdownFormat, generate: markdownDocument },
] as const;

for (const { name, format, generate } of FORMATS) {
  Deno.test(`random ${name} documents round-trip byte for byte through a passthrough engine`, async () => {
    for (let seed = 1; seed <= DOCUMENTS_PER_FORMAT; seed++) {
      const next = seededRandom(seed);
      const pick: Pick = (options) => options[Math.floor(next() * options.length)];
      const document = generate(pick);
      const result = await translateItem(format, document, (text) => text);
      assert.equal(result.text, document, `seed ${seed}`);
    }
  });

  Deno.test(`random ${name} documents keep their skeleton when every placeholder is dropped`, async () => {
    for (let seed = 1; seed <= DOCUMENTS_PER_FORMAT; seed++) {
      const next = seededRandom(seed);
      const pick: Pick = (options) => options[Math.floor(next() * options.length)];
      const text = generate(pick);
      const result = await translateItem(format, text, dropPlaceholders);
      const kind = { format: name, mode: "webpage" } as const;
      assert.deepEqual(
        structureOf({ ...kind, text: result.text }).skeleton,
        structureOf({ ...kind, text }).skeleton,
        `seed ${seed}:\n${text}\n---\n${result.text}`,
      );
    }
  });
}
