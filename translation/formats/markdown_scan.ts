/**
 * The first reader of the Markdown syntax tree (markdown_syntax.ts): our own scanner of the
 * common shapes, line by line with `indexOf` and char-code comparisons, no regular-expression
 * lexer and no alignment of tokens with the source (offsets are the source's).
 *
 * Why: marked's lexer (markdown_marked.ts) was still about 60% of the Markdown layer's time, and
 * in the service, between language detections, it ran three to four times slower than in a
 * loop (its many large regular expressions compete for the caches with detection's tables).
 *
 * It builds only what the Markdown cut reads: the text blocks (paragraphs, headings, table
 * cells, each as a `paragraph` of inline syntax, markdown_scan_inline.ts) and HTML blocks, in
 * order; code, front matter, math blocks, definitions and thematic breaks are skipped, and
 * block quotes, list items and footnotes are followed for their prefixes only. It declines
 * (`undefined`), and marked then micromark read the document, on what it does not read exactly
 * as micromark: a NUL, a CR that ends no line (CR LF is read as LF, and tabs as the spaces to
 * the next tab stop: markdown_read_columns.ts), a list that may not interrupt what the line
 * interrupts (`2.`, `01.`, an empty item) in a container the line opens, a line starting with `[`
 * after an empty item, an item starting with indented code, HTML blocks of kinds 3 to 5,
 * definitions over lines other than a label then its destination, footnote definitions inside
 * other containers or starting with a block.
 * tests/translation/formats/markdown_readers_test.ts holds it to micromark's cut on the corpus
 * and generated documents; markdown_scan_blocks_test.ts and markdown_scan_inline_test.ts on
 * random block and inline shapes.
 */
import { DECLINE } from "./markdown_marked_lexer.ts";
import { frontMatterEnd } from "./markdown_front_matter.ts";
import { type InlineContext, scanInline } from "./markdown_scan_inline.ts";
import { normalizeLabel } from "./markdown_scan_links.ts";
import { addressStarts } from "./markdown_scan_address.ts";
import { readInColumns } from "./markdown_read_columns.ts";
import type { Syntax } from "./markdown_syntax.ts";
import type { TextBlock } from "./markdown_scan_nodes.ts";
import {
  atxHeadingText,
  blockStart,
  checkFootnoteStart,
  closesFence,
  fenceAt,
  FOOTNOTE_DEFINITION,
  footnoteDefinitionAhead,
  htmlBlockAhead,
  isBlank,
  isSetextUnderline,
  isThematicBreak,
  listMarker,
  mayInterrupt,
  SPACE,
  spaces,
  trimEnd,
} from "./markdown_scan_lines.ts";
import {
  afterEmptyItems,
  type Container,
  continued,
  footnoteDefinition,
} from "./markdown_scan_containers.ts";
import { tableAhead, TableReader } from "./markdown_scan_table.ts";
import { definitionAt } from "./markdown_scan_definitions.ts";
import { HtmlBlockReader } from "./markdown_scan_html_block.ts";
import { checkInterruption, type LineRules, setLineRules } from "./markdown_scan_interrupts.ts";

/** The syntax tree of a Markdown document, or undefined where this reader declines. */
export function scanSyntax(source: string): Syntax | undefined {
  if (source.includes("\0")) return undefined;
  if (source.includes("\r") || source.includes("\t")) return readInColumns(source, scanSyntax);
  const body = frontMatterEnd(source);
  if (body === 0 && /^(?:---|\+\+\+)/.test(source)) return undefined;
  try {
    return new BlockScanner(source).scan(body);
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

class BlockScanner {
  readonly out: (TextBlock | Syntax)[] = [];
  readonly context: InlineContext;
  readonly containers: Container[] = [];
  /** The open paragraph (inside all open containers). */
  paragraph: TextBlock | undefined;
  /** An open fenced code or math block: its marker, size and containers. */
  fence: { marker: number; size: number; depth: number } | undefined;
  indentedCode = -1;
  /** The last line was a definition: micromark reads the next as if it interrupted it. */
  afterDefinition = false;
  /** The line being read continued every open container. */
  keptContainers = true;
  /** The rules of interrupting the line's first block is held to (set by `line`). */
  readonly rules: LineRules = {
    interrupting: false,
    itemsAsText: false,
    itemsStart: false,
    tagsInterrupt: false,
  };
  /** The open indented code has one line (blanks aside) which closed containers, opened none. */
  codeAfterClosing = false;
  readonly html: HtmlBlockReader;
  readonly table: TableReader;

  constructor(readonly source: string) {
    this.html = new HtmlBlockReader(source, this.out);
    this.table = new TableReader(source, this.out);
    this.context = {
      source,
      definitions: new Set(),
      footnotes: new Set(),
      math: source.includes("$"),
      addresses: addressStarts(source),
    };
  }

  scan(body: number): Syntax {
    const source = this.source;
    let lineStart = body;
    while (lineStart < source.length) {
      if (lineStart <= this.skipTo) {
        lineStart = this.skipTo + 1;
        continue;
      }
      let lineEnd = source.indexOf("\n", lineStart);
      if (lineEnd < 0) lineEnd = source.length;
      this.line(lineStart, lineEnd);
      lineStart = lineEnd + 1;
    }
    this.closeParagraph();
    this.html.close();
    const root: Syntax = { type: "root", start: 0, end: source.length, children: [] };
    for (const block of this.out) {
      if ("type" in block) root.children.push(block);
      else root.children.push(this.textBlock(block));
    }
    return root;
  }

  textBlock(block: TextBlock): Syntax {
    const from = block.check ? block.start + 3 : block.start;
    const inline = scanInline(this.context, from, block.end, block.lineStarts);
    if (block.check) {
      inline.unshift({ type: "taskListCheck", start: block.start, end: from, children: [] });
    }
    return { type: "paragraph", start: block.start, end: block.end, children: inline };
  }

  line(lineStart: number, lineEnd: number): void {
    const source = this.source;
    const line = continued(source, this.containers, lineStart, lineEnd);
    const { at, matched } = line;
    const all = matched === this.containers.length;
    if (this.html.open && this.html.line(at, lineEnd, all)) return;
    afterEmptyItems(source, this.containers, line, lineEnd);
    if (this.table.open && this.table.line(at, lineEnd, all)) return;
    if (this.fence) {
      if (all) {
        if (closesFence(source, at, lineEnd, this.fence)) this.fence = undefined;
        return;
      }
      this.fence = undefined; // its container ended
      checkInterruption(source, at, lineEnd, false);
    }
    // A block started inside the containers of an open paragraph, indented code or definition
    // interrupts it, and micromark holds every container the line opens to the rules of
    // interrupting (no `2.`, no empty item).
    const code = this.indentedCode >= 0;
    const paragraph = this.paragraph !== undefined;
    setLineRules(
      this.rules,
      all,
      paragraph,
      code,
      code && this.codeAfterClosing,
      this.afterDefinition,
    );
    this.keptContainers = all;
    if (this.indentedCode >= 0) {
      if (all && (isBlank(source, at, lineEnd) || spaces(source, at, lineEnd) >= 4)) {
        if (!isBlank(source, at, lineEnd)) this.codeAfterClosing = false;
        return;
      }
      this.indentedCode = -1;
      checkInterruption(source, at, lineEnd, all);
    }
    if (this.afterDefinition) {
      this.afterDefinition = false;
      if (!isBlank(source, at, lineEnd)) {
        // A definition is read like a paragraph: a line that leaves its container is lazy.
        if (!all) throw DECLINE;
        // Past the containers' prefixes: a title (`"`, `'` or `(`) goes on the definition, and
        // micromark reads an indented line after one as a paragraph, not code.
        const indent = spaces(source, at, lineEnd);
        const next = source.charCodeAt(at + indent);
        if (next === 34 || next === 39 || next === 40 || indent >= 4) throw DECLINE;
        checkInterruption(source, at, lineEnd, all);
      }
    }
    if (this.paragraph && matched === 0 && footnoteDefinitionAhead(source, lineStart)) {
      // Not lazy, and no paragraph's line: a footnote definition interrupts a paragraph, and on
      // a line that left containers micromark looks for new ones before reading it as lazy.
      this.closeParagraph();
    }
    const start = blockStart(source, at, lineEnd, this.paragraph !== undefined);
    if (this.paragraph) {
      if (!all) {
        // A lazy continuation line: the paragraph goes on and its containers stay open. An HTML
        // tag alone on it starts a block (of kind 7, which cannot interrupt a paragraph) that
        // micromark puts inside the containers the line left: it goes on while lines continue
        // them all.
        if (start === "other") {
          if (!htmlBlockAhead(source, at, lineEnd)) return this.continueParagraph(at, lineEnd);
          this.closeParagraph();
          this.html.start(at + spaces(source, at, lineEnd), lineEnd, at);
          return;
        }
        // Any other block starts: on a line that left containers micromark holds no item to the
        // rules of interrupting (`2.` and an empty item start too).
        this.closeParagraph();
      } else if (start === "blank") {
        this.closeParagraph();
      } else if (this.setext(at, lineEnd)) {
        return;
      } else if (start === "other" || start === "item-lazy") {
        return this.continueParagraph(at, lineEnd);
      } else this.closeParagraph();
    }
    this.containers.length = matched;
    this.open(at, lineEnd);
  }

  /** The open paragraph's next line, from `at` (past the containers it continues). */
  continueParagraph(at: number, lineEnd: number): void {
    const source = this.source;
    if (tableAhead(source, at, lineEnd, this.containers)) throw DECLINE; // a table under a paragraph
    const content = at + spaces(source, at, lineEnd);
    this.paragraph!.lineStarts.push(content);
    this.paragraph!.end = trimEnd(source, content, lineEnd);
  }

  /** A line where a block may start (no paragraph open): containers, then one leaf. */
  open(at: number, lineEnd: number): void {
    const source = this.source;
    const { interrupting, itemsAsText, itemsStart, tagsInterrupt } = this.rules;
    let itemContent = -1;
    const lineAt = at;
    for (;;) {
      const indent = spaces(source, at, lineEnd);
      if (at + indent === lineEnd) return; // blank
      if (indent >= 4) {
        if (at === itemContent) throw DECLINE; // an item starting with indented code
        this.indentedCode = 0;
        this.codeAfterClosing = !this.keptContainers && at === lineAt;
        return;
      }
      const content = at + indent;
      const code = source.charCodeAt(content);
      if (code === 62) {
        this.containers.push({ quote: true });
        at = content + 1;
        if (source.charCodeAt(at) === SPACE) at++;
        continue;
      }
      const marker = listMarker(source, content, lineEnd);
      if (marker > 0 && !isThematicBreak(source, content, lineEnd)) {
        const gap = spaces(source, content + marker, lineEnd);
        const empty = content + marker + gap === lineEnd;
        if (
          interrupting && !(itemsStart && at === lineAt) &&
          (empty || !mayInterrupt(source, content, marker, lineEnd))
        ) {
          // An item that may not interrupt (empty, or numbered other than 1): the line's text
          // goes on the code or definition before as micromark's content, a paragraph here.
          if (!itemsAsText || at !== lineAt) throw DECLINE;
          return this.leaf(content, lineEnd, false, at);
        }
        if (empty) {
          // An empty item: its content, if any, starts on the next line, one column past its
          // marker.
          const indent = content + marker + 1 - at;
          this.containers.push({ quote: false, indent, emptyStart: true });
          return;
        }
        if (gap > 4) throw DECLINE;
        const indent = content + marker + gap - at;
        this.containers.push({ quote: false, indent });
        at = itemContent = content + marker + gap;
        continue;
      }
      // A tag alone after a definition goes on its content (micromark's rules of interrupting),
      // unless a container opened before it on the line; after code it starts an HTML block.
      this.leaf(content, lineEnd, at === itemContent, at, tagsInterrupt && at === lineAt);
      return;
    }
  }

  /** One leaf block starting at `at`, its indentation from `indented` on. */
  leaf(
    at: number,
    lineEnd: number,
    firstInItem: boolean,
    indented: number,
    tagsInterrupt = false,
  ): void {
    const source = this.source;
    const code = source.charCodeAt(at);
    if (code === 35 && this.heading(at, lineEnd)) return;
    const fence = fenceAt(source, at, lineEnd);
    if (fence) {
      this.fence = { ...fence, depth: this.containers.length };
      return;
    }
    if (isThematicBreak(source, at, lineEnd)) return;
    if (code === 60 && this.html.start(at, lineEnd, indented, tagsInterrupt)) return;
    if (code === 91) {
      FOOTNOTE_DEFINITION.lastIndex = at;
      const footnote = FOOTNOTE_DEFINITION.exec(source);
      if (footnote) {
        this.footnote(footnote[1], FOOTNOTE_DEFINITION.lastIndex, lineEnd);
        return;
      }
      const definition = definitionAt(source, at, lineEnd, this.containers, firstInItem);
      if (definition) {
        this.context.definitions.add(normalizeLabel(definition.label));
        this.afterDefinition = true; // the next line is read with it (`line`)
        if (definition.end > lineEnd) this.skipTo = definition.end;
        return;
      }
    }
    const delimiterEnd = this.table.start(at, lineEnd, this.containers);
    if (delimiterEnd >= 0) {
      this.skipTo = delimiterEnd;
      return;
    }
    const line = source.slice(at, lineEnd);
    // `[x]` alone on its line: micromark may take it as the check of the next line's text.
    if (firstInItem && /^\[[ xX]\] *$/.test(line)) throw DECLINE;
    const check = firstInItem && /^\[[ xX]\] +[^ ]/.test(line);
    this.paragraph = { start: at, end: trimEnd(source, at, lineEnd), lineStarts: [], check };
  }

  /** A setext underline under the open paragraph: it becomes a heading. */
  setext(at: number, lineEnd: number): boolean {
    const source = this.source;
    if (!isSetextUnderline(source, at, lineEnd)) return false;
    // A heading's `[x]` is text: task list checks start paragraphs only.
    this.paragraph!.check = false;
    this.closeParagraph();
    return true;
  }

  closeParagraph(): void {
    if (this.paragraph) this.out.push(this.paragraph);
    this.paragraph = undefined;
  }

  /** An ATX heading at `at`: false where the `#` starts none (`#hashtag`, `#######`). */
  heading(at: number, lineEnd: number): boolean {
    const text = atxHeadingText(this.source, at, lineEnd);
    if (!text) return false;
    if (text.end > text.start) this.out.push({ ...text, lineStarts: [], check: false });
    return true;
  }

  /**
   * A footnote definition, at the top level: a container whose first line starts a paragraph
   * (markdown_scan_containers.ts, `footnoteDefinition`).
   */
  footnote(label: string, content: number, lineEnd: number): void {
    const source = this.source;
    if (this.containers.length > 0) throw DECLINE;
    checkFootnoteStart(source, content, lineEnd);
    this.context.footnotes.add(normalizeLabel(label));
    this.containers.push(footnoteDefinition());
    if (content === lineEnd) return; // its content starts on the next lines
    if (tableAhead(source, content, lineEnd, this.containers)) throw DECLINE;
    this.paragraph = {
      start: content,
      end: trimEnd(source, content, lineEnd),
      lineStarts: [],
      check: false,
    };
  }

  /** The source up to here is read already (a table's delimiter row, a definition's line). */
  skipTo = -1;
}
