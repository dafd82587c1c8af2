/**
 * The syntax tree the Markdown cut reads: micromark's token types with their source offsets.
 * Two readers build it. markdown_marked.ts reads marked's lexer, five times faster, for the
 * documents it can place exactly; micromark, the reference CommonMark + GFM parser, reads the
 * rest (and is what the tests compare the fast reader against).
 */
import { parse, postprocess, preprocess } from "micromark";
import { frontmatter, type Options } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { math } from "micromark-extension-math";
import type { ParseContext } from "micromark-util-types";
import { useLinearFootnoteCalls } from "./markdown_micromark_footnote_call.ts";
import { useLinearPairing } from "./markdown_micromark_pairing.ts";
import { usePandocMath } from "./markdown_micromark_math.ts";
import { frontMatterCloser } from "./markdown_front_matter.ts";

/** A piece of Markdown syntax: its micromark token type, [start, end) and the pieces inside. */
export interface Syntax {
  type: string;
  start: number;
  end: number;
  children: Syntax[];
}

/**
 * micromark's parser with the extensions read here (GFM, front matter, math with Pandoc's rule
 * for single dollars, markdown_math_dollars.ts, which every reader follows); `linear`: with
 * emphasis and strikethrough paired (markdown_micromark_pairing.ts) and footnote calls after
 * image starts found (markdown_micromark_footnote_call.ts) in linear time, as the service
 * reads; without, micromark as published, which the tests compare it with. `mdx`: without
 * indented code, which MDX does not have (content indented under a JSX component is text).
 */
export function micromarkParser(
  linear = true,
  yamlCloser: string | false = "---",
  { mdx = false }: { mdx?: boolean } = {},
): ParseContext {
  const matters: Options = [
    { type: "yaml", fence: { open: "---", close: yamlCloser || "---" } },
    "toml",
  ];
  const extensions = [
    gfm(),
    ...yamlCloser === false ? [] : [frontmatter(matters)],
    math(),
    ...mdx ? [{ disable: { null: ["codeIndented"] } }] : [],
  ];
  const parser = parse({ extensions });
  usePandocMath(parser.constructs);
  if (linear) {
    useLinearPairing(parser.constructs);
    useLinearFootnoteCalls(parser.constructs);
  }
  return parser;
}

// Built once: combining the extensions on every call cost a tenth of the parse.
const PARSER = micromarkParser();
const DOTS_CLOSED = micromarkParser(true, "...");
const WITHOUT_FRONT_MATTER = micromarkParser(true, false);
/** The same for MDX, built on first use (most items are no MDX). */
const MDX_PARSERS = new Map<string | false, ParseContext>();

/**
 * The parser for `source`: the front matter extension only where front matter closes (its
 * attempt on an unclosed `---` reads on to the end for the fence, and the document after it
 * lost its lists and block quotes: `- one` read as text), told the YAML closer found.
 */
function parserFor(source: string): ParseContext {
  const closer = frontMatterCloser(source);
  if (closer === undefined) return WITHOUT_FRONT_MATTER;
  return closer === "..." ? DOTS_CLOSED : PARSER;
}

/** The tree of `source` read as MDX reads its blocks: no indented code. */
export function mdxSyntax(source: string): Syntax {
  const found = frontMatterCloser(source);
  const closer = found === undefined ? false : found === "..." ? "..." : "---";
  let parser = MDX_PARSERS.get(closer);
  if (!parser) MDX_PARSERS.set(closer, parser = micromarkParser(true, closer, { mdx: true }));
  return micromarkSyntax(source, parser);
}

/** micromark's events as a tree: each enter and its exit are one node. */
export function micromarkSyntax(source: string, parser: ParseContext = parserFor(source)): Syntax {
  // A parser keeps the reference definitions, footnote labels and lazy lines of the document
  // it read: reset per use, or one document's `[^1]:` would make another's `[^1]` a call.
  parser.defined = [];
  parser.lazy = {};
  (parser as { gfmFootnotes?: string[] }).gfmFootnotes = [];
  const events = postprocess(parser.document().write(preprocess()(source, undefined, true)));
  const root: Syntax = { type: "root", start: 0, end: source.length, children: [] };
  const open: Syntax[] = [root];
  for (const [kind, token] of events) {
    if (kind === "exit") {
      open.pop();
      continue;
    }
    const node = {
      type: token.type,
      start: token.start.offset,
      end: token.end.offset,
      children: [],
    };
    open.at(-1)!.children.push(node);
    open.push(node);
  }
  return root;
}
