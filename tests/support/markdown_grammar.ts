/**
 * Markdown generated for the readers' differential tests: a grammar of awkward shapes (inline
 * syntax, containers, tables, fences, front matter, every line ending) and random texts of
 * pieces, the same ones on every run (seeded).
 */
import { loadCorpus } from "./document_structure.ts";
import { seededRandom } from "./seeded_random.ts";

/** How many documents a differential test generates. */
export const GENERATED = 2000;

/** Picks one of the options (the generator's random choice). */
export type Pick = <T>(options: readonly T[]) => T;

const WORDS = ["the", "Haus", "café", "東京", "x", "42", "a_b", "snake_case", "5$", "$10"];

function inline(pick: Pick, depth: number): string {
  const choices: (() => string)[] = [
    () => Array.from({ length: pick([1, 2, 3]) }, () => pick(WORDS)).join(" "),
    () => pick(["`code`", "`` a ` b ``", "`$x$`", "$x^2$", "$a*b$", "$$y$$", "\\$", "\\*"]),
    () => pick(["&amp;", "&copy;", "&#169;", "& x", "\\[", "\\]", "\\|", "[", "]", "!"]),
    () =>
      pick([
        "https://example.org/a_b",
        "www.example.com.",
        "me@example.org",
        // Not e-mail links for micromark (its domain must end in a letter, its local part holds
        // only letters, digits and `+-._`), which marked linked: package versions in READMEs.
        "protobufjs@7.2.4",
        "a!b@example.org",
        "@user",
        "(@user)",
        "`@scope/pkg`@1",
        "x @ y.org",
        "@a@b.org",
        "<https://x.org>",
        "www.example.org/docs/a.",
        "https://x.org",
        "(www.x.org)",
        "http://localhost",
      ]),
    () => pick(["<b>", "</b>", '<span class="x">s</span>', "<!-- c -->", "<br/>"]),
    () => pick(["[^1]", "[^2]", "[^nope]", "[ref]", "[ref][]", "[text][ref]", "[Ref]"]),
    () => pick(["  \n", "\\\n", "\n", " \n  "]),
    () => `![${pick(WORDS)} *${pick(WORDS)}*](img.png "T")`,
  ];
  if (depth < 3) {
    const inner = () => inlines(pick, depth + 1);
    choices.push(
      () => `*${inner()}*`,
      () => `_${inner()}_`,
      () => `**${inner()}**`,
      () => `__${inner()}__`,
      () => `~${inner()}~`,
      () => `~~${inner()}~~`,
      () => `***${inner()}***`,
      () => `*${inner()}`,
      () => `${inner()}**`,
      () => `[${inner()}](https://example.org/x "T")`,
      () => `[${inner()}](<a b> 'T')`,
      () => `[${inner()}][ref]`,
      () => `[${inner()}]`,
    );
  }
  return pick(choices)();
}

function inlines(pick: Pick, depth: number): string {
  return Array.from({ length: pick([1, 2, 3]) }, () => inline(pick, depth)).join(pick([" ", ""]));
}

function block(pick: Pick, depth: number): string {
  const line = () => inlines(pick, 0).replace(/\n/g, " ");
  const choices: (() => string)[] = [
    () => inlines(pick, 0),
    () => `${line()}\n${inlines(pick, 0)}`,
    () => `${pick(["#", "##", "######", " #", "#######"])} ${line()}${pick(["", " ##", " #x"])}`,
    () => `${line()}\n${pick(["===", "---", "-", "  ==="])}`,
    () => pick(["***", "---", "_ _ _", "* * *"]),
    () => "```js\nconst a = `x`; // *no*\n```",
    () => "~~~\ncode $x$\n~~~",
    () => "```\nunclosed fence",
    () => `    indented ${line()}`,
    () => `$$\n${pick(["E = mc^2", "a*b*c", ""])}\n$$`,
    () => `$$ meta\nx\n$$`,
    () => `| a | ${line().replace(/\|/g, "\\|")} |\n|:--|--:|\n| ${line()} | b \\| c |`,
    () => `a | b\n--|--\n${pick(["1 | 2", "1 | 2 | 3", "1", "| 1 |"])}`,
    () => `<div title="t">\n${line()}\n</div>`,
    () => `<details>\n<summary>${line()}</summary>\n\n${line()}\n\n</details>`,
    () => `<!-- ${line()} -->`,
    () => `[ref]: https://example.org/ref "T"`,
    () =>
      `[ref]:\n${pick(["", "  ", "    "])}https://example.org/ref${pick(["", ' "T"', "\n'T'"])}`,
    () => `[^1]: ${line()}`,
    () => `[^2]: ${line()}\n    ${line()}`,
    () => `[^1]: ${line()}\n\n    ${pick(["- ", "> ", "", "    ", "1. "])}${line()}`,
    () => `[^2]: ${line()}\n${line()}\n${pick(["[^1]: x", "    y", "  z", ""])}`,
    () => `:::note\n${line()}\n:::`,
  ];
  if (depth < 2) {
    const inner = () => blocks(pick, depth + 1);
    const indent = (text: string, prefix: string) => text.replace(/\n/g, `\n${prefix}`);
    choices.push(
      () => `> ${indent(inner(), pick(["> ", ">", "", "  "]))}`,
      () => `- ${indent(inner(), "  ")}\n- [ ] ${line()}\n- [x] ${line()}`,
      () => `1. ${indent(inner(), "   ")}\n2) ${line()}`,
      () => `*\t${line()}\n\t${line()}`,
      () => `- a\n\n  ${line()}\n- b`,
      () => `${line()}\n> ${line()}\n${line()}`,
    );
  }
  return pick(choices)();
}

function blocks(pick: Pick, depth: number): string {
  return Array.from({ length: pick([1, 2, 3]) }, () => block(pick, depth)).join(
    pick(["\n\n", "\n", "\n\n\n"]),
  );
}

/** One document of the grammar, its choices made by `pick`. */
export function document(pick: Pick): string {
  const front = pick(["", "", "---\ntitle: x\n---\n", "+++\na = 1\n+++\n\n", "---\n---\n"]);
  const text = front + blocks(pick, 0) + pick(["", "\n", "  "]);
  const lineEnding = pick(["\n", "\n", "\n", "\n", "\r\n", "\r\n", "\r"]);
  return lineEnding === "\n" ? text : text.replace(/\n/g, lineEnding);
}

/** The corpus's Markdown documents, then generated ones. */
export function documents(generated: number): string[] {
  const texts = loadCorpus().filter((d) => d.format === "markdown").map((d) => d.text);
  for (let seed = 1; seed <= generated; seed++) {
    const next = seededRandom(seed);
    texts.push(document((options) => options[Math.floor(next() * options.length)]));
  }
  return texts;
}

/** Texts of 1 to `longest` pieces drawn from `pieces`, the same ones on every run. */
export function randomTexts(
  pieces: readonly string[],
  longest: number,
  count = GENERATED * 4,
): string[] {
  return Array.from({ length: count }, (_, index) => {
    const next = seededRandom(index + 1);
    const pick = () => pieces[Math.floor(next() * pieces.length)];
    return Array.from({ length: 1 + Math.floor(next() * longest) }, pick).join("");
  });
}
