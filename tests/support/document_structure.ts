/**
 * What must not change when a document is translated, read straight from the parsers (parse5,
 * mdast) and from the subtitle line rules, independently of the service's format code: the
 * skeleton (tags with their attributes, comments, never-translated text, code, URLs, timing
 * lines) and the words a reader sees, which must all have gone to the engine. One rule is shared
 * with the service on purpose: which single dollars are inline math (Pandoc's, DECISIONS keeps
 * math and a price is text), put on micromark's own math construct.
 */
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { mathFromMarkdown } from "mdast-util-math";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { math } from "micromark-extension-math";
import type { FullNormalizedExtension } from "micromark-util-types";
import { type DefaultTreeAdapterTypes as Tree, parse, parseFragment } from "parse5";
import { usePandocMath } from "../../translation/formats/markdown_micromark_math.ts";

/** A document of the corpus and how it is sent. */
export interface CorpusDocument {
  name: string;
  text: string;
  format: "text" | "html" | "markdown";
  mode: string;
}

/** The skeleton and the visible words of a document. */
export interface DocumentStructure {
  /** Everything that must come back byte for byte, in order. */
  skeleton: string[];
  /** Words (two letters or more) of the text a reader sees. */
  words: string[];
}

const CORPUS_DIR = new URL("../fixtures/documents/", import.meta.url);

/** Loads every document of `tests/fixtures/documents/`, sorted by name. */
export function loadCorpus(): CorpusDocument[] {
  const names = [...Deno.readDirSync(CORPUS_DIR)].map((entry) => entry.name).sort();
  return names.map((name) => {
    const text = Deno.readTextFileSync(new URL(name, CORPUS_DIR));
    if (name.endsWith(".html")) return { name, text, format: "html", mode: "webpage" };
    if (name.endsWith(".md")) return { name, text, format: "markdown", mode: "document" };
    if (name.endsWith(".srt") || name.endsWith(".vtt")) {
      return { name, text, format: "text", mode: "subtitle" };
    }
    return {
      name,
      text,
      format: "text",
      mode: name.startsWith("document") ? "document" : "message",
    };
  });
}

/** The structure of a document, by its format and mode. */
export function structureOf(document: Pick<CorpusDocument, "text" | "format" | "mode">) {
  if (document.format === "html") return htmlStructure(document.text);
  if (document.format === "markdown") return markdownStructure(document.text);
  if (document.mode === "subtitle") return subtitleStructure(document.text);
  return textStructure(document.text);
}

/** Words of a text: runs of two or more letters. */
export function wordsOf(text: string): string[] {
  return text.match(/\p{L}{2,}/gu) ?? [];
}

const NEVER = new Set([
  "script",
  "style",
  "code",
  "pre",
  "kbd",
  "samp",
  "var",
  "math",
  "svg",
  "textarea",
  "xmp",
  "plaintext",
  "iframe",
  "noembed",
  "noframes",
  // A ruby's readings: they say how the base text is pronounced.
  "rt",
  "rp",
  "rtc",
]);
const ADDRESS_ONLY = /^\s*(?:(?:https?:\/\/|ftp:\/\/|www\.)\S+|[\w.%+-]+@[\w-]+(?:\.[\w-]+)+)\s*$/;
const TRANSLATED_ATTRIBUTES = new Set(["alt", "title", "placeholder", "aria-label"]);
/** What a drop-down or a caption menu shows: an `option`'s, `optgroup`'s or `track`'s label. */
const LABELLED = new Set(["option", "optgroup", "track"]);
/** The `meta` names whose `content` a search result or a link preview shows. */
const SHOWN_META = /^(?:description|(?:og|twitter):(?:title|description|image:alt))$/i;

/** Whether a reader sees the value of `name` on `element` (a button input's `value`...). */
function isShown(element: Tree.Element, name: string): boolean {
  if (TRANSLATED_ATTRIBUTES.has(name)) return true;
  const value = (of: string) => element.attrs.find((a) => a.name === of)?.value ?? "";
  if (name === "value") {
    return element.tagName === "input" && /^(?:submit|button|reset)$/i.test(value("type"));
  }
  if (name === "label") return LABELLED.has(element.tagName);
  return name === "content" && element.tagName === "meta" &&
    SHOWN_META.test(value("name") || value("property"));
}

function htmlStructure(text: string): DocumentStructure {
  // `noscript` holds markup a reader sees when scripts are off: read as such a browser reads it.
  const options = { sourceCodeLocationInfo: true, scriptingEnabled: false };
  // A whole page may open with an XML declaration (XHTML) or comments before its doctype.
  const tree = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype|html)[\s>]/i.test(text)
    ? parse(text, options)
    : parseFragment(text, options);
  const skeleton: string[] = [];
  const words: string[] = [];
  const walk = (node: Tree.ParentNode, translating: boolean) => {
    for (const child of node.childNodes) {
      if (child.nodeName === "#text") {
        const value = (child as Tree.TextNode).value;
        // The engine reads what a reader sees: character references as their characters
        // (white space and `<`, `>` among them split words, as they do for the engine).
        // Text that is one URL or e-mail address (a link's text) is kept, not translated.
        if (translating && !ADDRESS_ONLY.test(value)) words.push(...wordsOf(value));
        else skeleton.push(`text:${value}`);
      } else if (child.nodeName === "#comment") {
        skeleton.push(`<!--${(child as Tree.CommentNode).data}-->`);
      } else if (child.nodeName === "#documentType") {
        skeleton.push("<!doctype>");
      } else if ("tagName" in child) {
        const attrs = child.attrs.map((a) =>
          isShown(child, a.name) && translating ? a.name : `${a.name}=${a.value}`
        );
        skeleton.push(`<${child.tagName} ${attrs.join(" ")}>`);
        // `translate` is an enumerated attribute: its value is read in any case.
        const own = child.attrs.find((a) => a.name === "translate")?.value.toLowerCase();
        const refused = own === "no" ||
          (child.attrs.find((a) => a.name === "class")?.value ?? "").split(/\s+/)
            .includes("notranslate");
        const inner = !NEVER.has(child.tagName) && (own === "yes" || (translating && !refused));
        walk(child, inner);
        if (child.tagName === "template") walk((child as Tree.Template).content, inner);
        skeleton.push(`</${child.tagName}>`);
      }
    }
  };
  walk(tree, true);
  return { skeleton, words };
}

/** Where the inline HTML element a never-translated opening tag at `index` opens is closed. */
function neverTranslatedEnd(
  siblings: readonly { type: string; value?: string }[],
  index: number,
): number {
  const value = siblings[index].type === "html" ? siblings[index].value ?? "" : "";
  const opening = /^<([a-z][\w-]*)[\s>]/i.exec(value);
  const name = opening && opening[1].toLowerCase();
  // Never translated by its name, or marked so (the HTML rules' translate="no", notranslate).
  const refused = /\stranslate\s*=\s*["']?no\b/i.test(value) ||
    /\sclass\s*=\s*["']?[^"'>]*\bnotranslate(?![\w-])/i.test(value);
  if (!name || (!NEVER.has(name) && !refused)) return -1;
  let depth = 0;
  for (let at = index; at < siblings.length; at++) {
    const value = siblings[at].type === "html" ? siblings[at].value ?? "" : "";
    if (new RegExp(`^<${name}[\\s>]`, "i").test(value)) depth++;
    else if (new RegExp(`^</${name}\\s*>$`, "i").test(value) && --depth === 0) return at;
  }
  return -1;
}

/**
 * Markdown extension syntax read as text: kept as written. A directive fence's title is words
 * (`:::tip[Read this]`, `:::tip Read this`); a `:shortcode:` (GitHub renders it) is none.
 */
const EXTENSION_SYNTAX =
  /^:{3,}[\w-]*|\{[#.:][^{}\n]*\}|!?\[\[[^\]\n]+\]\]|(?<![\p{L}\p{N}:])(?::[a-z\d_+-]*[a-z_+-][a-z\d_+-]*:)+(?![\p{L}\p{N}])/gmu;

/** micromark's math syntax, its inline math under Pandoc's rule for single dollars. */
function pandocMath() {
  const extension = math();
  usePandocMath(extension as FullNormalizedExtension);
  return extension;
}

function markdownStructure(text: string): DocumentStructure {
  const tree = fromMarkdown(text, {
    extensions: [gfm(), frontmatter(["yaml", "toml"]), pandocMath()],
    mdastExtensions: [
      gfmFromMarkdown(),
      frontmatterFromMarkdown(["yaml", "toml"]),
      mathFromMarkdown(),
    ],
  });
  const skeleton: string[] = [];
  const words: string[] = [];
  type Node =
    & { type: string; value?: string; url?: string; children?: Node[] }
    & Record<string, unknown>;
  const walk = (node: Node) => {
    const { type } = node;
    if (type === "text") {
      // GitHub's alert markers (`> [!NOTE]`) are syntax, not words; so are directive fences
      // (`:::note`), attribute blocks (`{#id}`), wiki links (`[[Page]]`) and `:shortcodes:`.
      let value = node.value ?? "";
      const alert = /^\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/i.exec(value)?.[0];
      if (alert) skeleton.push(`alert:${alert}`);
      if (alert) value = value.slice(alert.length);
      for (const extension of value.match(EXTENSION_SYNTAX) ?? []) skeleton.push(extension);
      words.push(...wordsOf(value.replace(EXTENSION_SYNTAX, " ")));
    } else if (type === "link" && isAutolink(node, text)) {
      skeleton.push(`autolink:${node.url}`);
      return;
    } else if (type.endsWith("Reference") && node.referenceType !== "full" && node.children) {
      // `[FAQ][]` and `[FAQ]`: the text is the label; translating it would unlink it.
      skeleton.push(`label:${node.identifier}`);
      return;
    } else if (type === "html") {
      skeleton.push(`html:${htmlStructure(node.value ?? "").skeleton.join("")}`);
    } else if ("value" in node) skeleton.push(`${type}:${node.value}`);
    else {
      // A link's or image's title is read (a tooltip); a definition's is kept as written.
      const titled = (type === "link" || type === "image") && typeof node.title === "string";
      const facts = ["url", "title", "depth", "ordered", "start", "checked", "align", "identifier"]
        .filter((key) => node[key] !== undefined && node[key] !== null)
        .map((key) => key === "title" && titled ? "title" : `${key}=${JSON.stringify(node[key])}`);
      skeleton.push(`${type}(${facts.join(",")})`);
      if (titled) words.push(...wordsOf(node.title as string));
    }
    if (type === "html") words.push(...htmlStructure(node.value ?? "").words);
    const children = node.children ?? [];
    for (let index = 0; index < children.length; index++) {
      // Inline HTML follows the HTML rules: `<kbd>…</kbd>` in a paragraph is never sent (when
      // closed among the same siblings).
      const end = neverTranslatedEnd(children, index);
      if (end === -1) {
        walk(children[index]);
        continue;
      }
      // Read by the HTML rules, as an html node is: an attribute such as `title` is translated
      // on a never-translated element too.
      const kept = children.slice(index, end + 1).map((child) => child.value ?? "").join("");
      skeleton.push(`kept:${htmlStructure(kept).skeleton.join("")}`);
      index = end;
    }
  };
  walk(tree as unknown as Node);
  // Line structure: every line that is blank stays blank, the line count stays.
  const lines = text.split("\n");
  skeleton.push(`lines:${lines.length}`);
  skeleton.push(`blank:${lines.flatMap((line, i) => line.trim() === "" ? [i] : []).join(",")}`);
  return { skeleton, words };
}

/** Text that is one URL or e-mail address (written here apart from the service's own rule). */
const ONE_ADDRESS = /^(?:(?:https?|ftp):\/\/|www\.)[^\s<>"]+$|^[\w.%+-]+@[\w-]+(?:\.[\w-]+)+$/;

/**
 * A link written as its own address (`<https://…>`, `www.x.org`, an e-mail) or whose text is one
 * address (`[security@x.org](mailto:security@x.org)`, `[http://x.org/a](http://x.org/a.html)`):
 * its text is kept. A link whose text merely equals its target (`[INSTALL.md](INSTALL.md)`) has
 * its text translated.
 */
function isAutolink(
  node: {
    url?: string;
    children?: { type: string; value?: string }[];
    position?: { start: { offset?: number }; end: { offset?: number } };
  },
  source: string,
) {
  const only = node.children?.length === 1 ? node.children[0] : undefined;
  const text = only?.type === "text" ? only.value : undefined;
  if (text === undefined) return false;
  if (ONE_ADDRESS.test(text.trim())) return true;
  const written = source.slice(node.position?.start.offset, node.position?.end.offset);
  return (written === text || written === `<${text}>`) &&
    [text, `mailto:${text}`, `http://${text}`, `https://${text}`].includes(node.url ?? "");
}

function subtitleStructure(text: string): DocumentStructure {
  const lines = text.split(/(?<=\r?\n)/);
  const skeleton: string[] = [];
  const words: string[] = [];
  let inCue = false;
  for (const line of lines) {
    if (line.trim() === "") inCue = false;
    if (inCue) {
      words.push(...wordsOf(line.replace(/<[^>]*>|\{\\[^}]*\}/g, " ")));
      skeleton.push(
        `cue line${line.endsWith("\n") ? line.endsWith("\r\n") ? " crlf" : " lf" : ""}`,
      );
    } else skeleton.push(line);
    if (line.includes("-->")) inCue = true;
  }
  return { skeleton, words };
}

function textStructure(text: string): DocumentStructure {
  const separators = text.match(/\r?\n(?:[ \t]*\r?\n)+/g) ?? [];
  // Addresses, mentions, hashtags and shortcodes are kept, not sent: their words do not count.
  const prose = text.split(/\s+/).filter((token) => !/[@#/]|^:\w|www\./.test(token)).join(" ");
  return { skeleton: separators, words: wordsOf(prose) };
}

/** The item texts an Ollama stand-in received, placeholders removed. */
export function sentTexts(chats: Record<string, unknown>[]): string[] {
  return chats.flatMap((chat) => {
    const messages = chat.messages as { role: string; content: string }[];
    const payload = JSON.parse(messages.find((m) => m.role === "user")!.content) as {
      items: { text: string }[];
    };
    return payload.items.map((item) => item.text.replace(/<\/?x\d+\/?>/g, " "));
  });
}
