/**
 * HTML blocks for the own Markdown scanner (markdown_scan.ts): opened at a line starting one of
 * kinds 1, 2, 6 and 7, ended as micromark ends its kind (a closing line, or a blank one), and by
 * a line that leaves one of its containers (micromark takes no lazy line into HTML).
 */
import {
  htmlBlockEnds,
  type HtmlBlockKind,
  htmlBlockKind,
  isBlank,
} from "./markdown_scan_lines.ts";
import type { Syntax } from "./markdown_syntax.ts";

/** The open HTML block of a document, if any, and the blocks it ends into `out`. */
export class HtmlBlockReader {
  #open: { kind: HtmlBlockKind; start: number; end: number } | undefined;

  constructor(readonly source: string, readonly out: { push(block: Syntax): unknown }) {}

  get open(): boolean {
    return this.#open !== undefined;
  }

  /**
   * An HTML block starting at `at`, its indentation from `indented` on (in containers, past
   * their prefixes): true where micromark's block starts. `interrupting`: the line interrupts
   * code or a definition, where a tag alone (kind 7) starts none.
   */
  start(at: number, lineEnd: number, indented: number, interrupting = false): boolean {
    const kind = htmlBlockKind(this.source, at, lineEnd, interrupting);
    if (!kind) return false;
    this.#open = { kind, start: indented, end: lineEnd };
    if (htmlBlockEnds(kind, this.source.slice(at, lineEnd))) this.close();
    return true;
  }

  /**
   * A line while a block is open, from `at` past the containers it continues (`all`): true
   * when it belongs to the block.
   */
  line(at: number, lineEnd: number, all: boolean): boolean {
    const html = this.#open!;
    if (!all || (html.kind === "blank" && isBlank(this.source, at, lineEnd))) {
      this.close();
      return false;
    }
    html.end = lineEnd;
    if (htmlBlockEnds(html.kind, this.source.slice(at, lineEnd))) this.close();
    return true;
  }

  close(): void {
    if (!this.#open) return;
    const { start, end } = this.#open;
    this.out.push({ type: "htmlFlow", start, end, children: [] });
    this.#open = undefined;
  }
}
