/**
 * XLIFF files (1.2 and 2.0) under `format: "xml"`, answered as translation tools (OmegaT,
 * Weblate, Poedit, Okapi) read them: a source is what the translator needs, so it is never
 * translated in place; each unit (1.2's `<trans-unit>`, 2.0's `<segment>`) gets a `<target>`
 * holding its source's translation, its inline codes (`<g>`, `<x/>`, `<pc>`, `<sc/>`, …) kept as
 * written. A new target follows the source (1.2: and `<seg-source>`), on a line of its own with
 * the source's indentation when the source has one; an existing target's content is replaced.
 * A 1.2 unit whose `<seg-source>` cuts its source into `<mrk mtype="seg" mid=…>` segments (Okapi's,
 * memoQ's segmented files) gets a target mirroring the seg-source, as those tools read it back
 * by `mid`: each segment's content translated on its own, what lies between segments as written.
 * 1.2 marks the target `state="translated"`, 2.0 the segment; the file gets the request's target
 * language (1.2's `target-language` on each `<file>`, 2.0's `trgLang` on `<xliff>`).
 * A file that needs no translation (already in the target language, or nothing to send) is
 * answered the same way, each target a copy of its source (`filled`, plan.ts), as a translation
 * tool's copy-source step (OmegaT's, Okapi's) fills it: the translator gets a complete file.
 * Left alone, never sent: what `translate="no"` marks (a file, group or unit, unless it says
 * `translate="yes"` itself), and what a person
 * approved (1.2: a target `final` or `signed-off`, a unit `approved="yes"`; 2.0: a segment
 * `reviewed` or `final`), as a machine translation is no reason to undo a reviewer's work.
 * So is a unit whose source is empty. Everything else (notes, `<alt-trans>`, `<ignorable>`, the
 * skeleton) stays byte for byte.
 * Which items are XLIFF, of which version and with which prefix on its element names (`xlf:` of
 * `<xlf:xliff xmlns:xlf=…>`, which a new target is written with too): xml_root.ts.
 *
 * Pure: no I/O.
 */
import { combineCuts, type CutItem, type CutPart, type TagOptions } from "./format.ts";
import type { XliffRoot } from "./xml_root.ts";

/**
 * The tag options of an XLIFF item whose element names start with `prefix`: 1.2's native code
 * (`<ph>`, `<bpt>`, …) is kept whole.
 */
export function xliffTags(tags: TagOptions, prefix = ""): TagOptions {
  const native = ["ph", "bpt", "ept", "it"].map((name) => prefix + name);
  return { ...tags, ignore: new Set([...tags.ignore, ...native]) };
}

/** The element that gets a target, and the attribute naming the file's target language. */
const SHAPES = {
  1: { unit: "trans-unit", root: "file", language: "target-language", after: "source-language" },
  2: { unit: "segment", root: "xliff", language: "trgLang", after: "srcLang" },
} as const;

/** The states of a translation a person approved, which a new one does not replace. */
const APPROVED: ReadonlySet<string> = new Set(["final", "signed-off", "reviewed"]);

/**
 * A piece of markup: comments, CDATA, processing instructions and declarations are skipped
 * whole; a tag gives its closing slash, name, attributes and empty-element slash.
 */
const MARKUP =
  /<!--[^]*?-->|<!\[CDATA\[[^]*?\]\]>|<\?[^]*?\?>|<![^>]*>|<(\/?)([^\s/>!?]+)((?:[^<>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

/**
 * An open element: its name, its name in XLIFF (without the file's prefix; undefined for another
 * vocabulary's element) and whether it or one around it refuses translation.
 */
interface OpenElement {
  name: string;
  local?: string;
  refused: boolean;
}

/** A unit as read: where its source, its target and (2.0) its start tag are. */
interface Unit {
  /** 2.0: the segment's start tag, where its state is set. */
  tag?: [number, number];
  /** The source's content, [start, end), and where the source starts. */
  source?: { start: number; end: number; tag: number };
  /** 1.2: the `<seg-source>`'s content, [start, end). */
  segSource?: { start: number; end: number };
  /** Where a new target goes: past the source (1.2: and `<seg-source>`). */
  after: number;
  target?: { start: number; end: number; tag: string };
  /** Left alone: refused, or approved by a person. */
  kept: boolean;
}

/**
 * Cuts an XLIFF file: one part per unit to translate, its source's content cut by `cutInline`
 * (xml's own cut) and written into its target; and the target language named on the file when
 * `target` is given.
 */
export function cutXliff(
  text: string,
  root: XliffRoot,
  options: { target?: string; cutInline: (source: string) => CutItem },
): CutItem {
  const { version, prefix } = root;
  const shape = SHAPES[version];
  const parts: CutPart[] = [];
  const open: OpenElement[] = [];
  let unit: Unit | undefined;
  for (const found of text.matchAll(MARKUP)) {
    const [written, closing, name, attributes, empty] = found;
    const start = found.index;
    const end = start + written.length;
    if (name === undefined) continue;
    const local = name.startsWith(prefix) ? name.slice(prefix.length) : undefined;
    if (closing) {
      const index = open.findLastIndex((element) => element.name === name);
      if (index === -1) continue;
      open.length = index;
      if (unit === undefined) continue;
      if (local === shape.unit) {
        parts.push(...unitParts(text, unit, { ...options, prefix }));
        unit = undefined;
      } else if (open.at(-1)?.local === shape.unit) {
        if (local === "source" && unit.source) unit.source.end = start;
        if (local === "seg-source" && unit.segSource) unit.segSource.end = start;
        if (local === "source" || local === "seg-source") unit.after = end;
        if (local === "target" && unit.target) unit.target.end = end;
      }
      continue;
    }
    const parent = open.at(-1);
    // A `translate` of its own overrides what it is inside (XLIFF 1.2, 2.0 and ITS alike).
    const translate = attribute(attributes, "translate");
    const refused = translate === undefined ? parent?.refused === true : translate === "no";
    if (local === shape.root && options.target !== undefined) {
      const tag = withAttribute(written, shape.language, options.target, shape.after);
      parts.push({ start, end, cut: fixed(tag) });
    }
    if (local === shape.unit && (version === 1 || parent?.local === "unit")) {
      const approved = attribute(attributes, version === 1 ? "approved" : "state");
      unit = { after: end, kept: refused || APPROVED.has(approved ?? "") || approved === "yes" };
      if (version === 2) unit.tag = [start, end];
    } else if (unit !== undefined && parent?.local === shape.unit) {
      if (local === "source" && unit.source === undefined) {
        unit.source = { start: end, end, tag: start };
        unit.after = end;
      } else if (local === "seg-source" && unit.segSource === undefined && version === 1) {
        unit.segSource = { start: end, end };
      } else if (local === "target" && unit.target === undefined) {
        unit.target = { start, end, tag: written };
        if (APPROVED.has(attribute(attributes, "state") ?? "")) unit.kept = true;
      }
    }
    if (!empty) open.push({ name, local, refused });
  }
  return { ...combineCuts(text, parts), standalone: true, filled: true };
}

/** A unit's parts: its target (and 2.0's segment state), or none when it is left alone. */
function unitParts(
  text: string,
  unit: Unit,
  options: { prefix: string; cutInline: (source: string) => CutItem },
): CutPart[] {
  const { source, target, tag } = unit;
  if (unit.kept || source === undefined || text.slice(source.start, source.end).trim() === "") {
    return [];
  }
  const segmented = unit.segSource && text.slice(unit.segSource.start, unit.segSource.end);
  const inline = (segmented && segmentsCut(segmented, options)) ||
    options.cutInline(text.slice(source.start, source.end));
  const parts: CutPart[] = [];
  if (tag !== undefined) {
    const written = withAttribute(text.slice(...tag), "state", "translated");
    parts.push({ start: tag[0], end: tag[1], cut: fixed(written) });
  }
  const { prefix } = options;
  const opening = (target?.tag ?? `<${prefix}target>`).replace(/\s*\/>$/, ">");
  const start = tag === undefined ? withAttribute(opening, "state", "translated") : opening;
  const lead = target === undefined ? ownLine(text, source.tag) : "";
  parts.push({
    start: target?.start ?? unit.after,
    end: target?.end ?? unit.after,
    cut: wrapped(inline, (translated) => `${lead}${start}${translated}</${prefix}target>`),
  });
  return parts;
}

/**
 * A seg-source's content cut segment by segment: each `<mrk mtype="seg">`'s content by
 * `cutInline`, the marks themselves and what lies between them kept. Undefined when it marks no
 * segment (the source is cut instead).
 */
function segmentsCut(
  content: string,
  options: { prefix: string; cutInline: (source: string) => CutItem },
): CutItem | undefined {
  const mark = `${options.prefix}mrk`;
  const parts: CutPart[] = [];
  let depth = 0;
  let start = -1;
  for (const found of content.matchAll(MARKUP)) {
    const [written, closing, name, attributes, empty] = found;
    if (name !== mark || empty) continue;
    if (closing) {
      depth--;
      if (depth === 0 && start !== -1) {
        const end = found.index;
        parts.push({ start, end, cut: options.cutInline(content.slice(start, end)) });
        start = -1;
      }
      continue;
    }
    if (depth === 0 && attribute(attributes, "mtype") === "seg") {
      start = found.index + written.length;
    }
    depth++;
  }
  return parts.length === 0 ? undefined : combineCuts(content, parts);
}

/**
 * What goes before a new target for it to sit on a line of its own, as the source at `at` does:
 * the line break the file uses and the source's indentation ("" when the source shares a line).
 */
function ownLine(text: string, at: number): string {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  const indentation = text.slice(lineStart, at);
  if (lineStart === 0 || !/^[ \t]*$/.test(indentation)) return "";
  return (text[lineStart - 2] === "\r" ? "\r\n" : "\n") + indentation;
}

/** An attribute's value in a start tag's attributes (undefined: not there). */
function attribute(attributes: string, name: string): string | undefined {
  const found = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return found === null ? undefined : (found[1] ?? found[2]).trim();
}

/**
 * A start tag with an attribute set to `value`: replaced where it is, or added after the
 * attribute `after` (`target-language` after `source-language`) or else at the end.
 */
function withAttribute(tag: string, name: string, value: string, after?: string): string {
  const set = `${name}="${value}"`;
  const present = new RegExp(`(\\s)${name}\\s*=\\s*(?:"[^"]*"|'[^']*')`);
  if (present.test(tag)) return tag.replace(present, (_, space: string) => space + set);
  const previous = after === undefined
    ? null
    : new RegExp(`\\s${after}\\s*=\\s*(?:"[^"]*"|'[^']*')`).exec(tag);
  if (previous !== null) {
    const at = previous.index + previous[0].length;
    return `${tag.slice(0, at)} ${set}${tag.slice(at)}`;
  }
  return tag.replace(/\s*\/?>$/, (ending) => ` ${set}${ending}`);
}

/** A part with no segments, written as `text`. */
function fixed(text: string): CutItem {
  return { segments: [], assemble: () => text };
}

/** A cut whose assembled text is passed through `write`. */
function wrapped(cut: CutItem, write: (assembled: string) => string): CutItem {
  return { segments: cut.segments, assemble: (translated) => write(cut.assemble(translated)) };
}
