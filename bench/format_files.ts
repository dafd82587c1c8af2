/**
 * The format layer on real files found on this machine (BENCHMARKS.md, "Formats"). Checks, each on
 * a seeded sample of up to `--limit` files per kind:
 * - every HTML, Markdown, subtitle, text and XML file, cut in two modes and assembled back with
 *   its own text (what a passthrough engine returns), gives the file byte for byte (with the
 *   throughput); but an XLIFF file, which gains targets by design, gives the file with a target
 *   copying each unit's source and nothing else changed (bench/xliff_targets.ts);
 * - through engines that change the text (upper-casing; dropping every placeholder), HTML pages
 *   and Markdown items keep their skeleton as the tests' independent oracle reads it
 *   (tests/support/document_structure.ts), and every word a reader sees is sent; XML files keep
 *   their sequence of tags, with DeepL's outline detection and with every element inline (and
 *   what each sends), an XLIFF file's new targets the tags of their sources; text files in
 *   message mode keep every URL and e-mail address;
 * - wherever the scanner or marked reads a Markdown item or file, its cut is micromark's, and
 *   wherever the HTML scanner reads a file, its tokens are parse5's (the differential tests of
 *   tests/translation/formats/ on real files); which reader takes each Markdown item of at most
 *   the service's 8,000 code points, at what cost.
 *
 * Usage: deno task check:format-files [--limit 20000] [--seed 1] [FOLDER…]
 * (default folders: /usr/share/doc, /usr/lib, node_modules). Exits 1 when any check fails. Not
 * part of the suite: which files exist depends on the machine.
 */
import { isDeepStrictEqual, parseArgs } from "node:util";
import { join } from "node:path";
import { DEFAULT_TAG_OPTIONS } from "../translation/formats/format.ts";
import { FORMATS, visibleText } from "../translation/formats/formats.ts";
import { scannedTokens } from "../translation/formats/html_scanner.ts";
import { parse5Tokens } from "../translation/formats/html_tokenizer.ts";
import { markedSyntax } from "../translation/formats/markdown_marked.ts";
import { scanSyntax } from "../translation/formats/markdown_scan.ts";
import { micromarkSyntax } from "../translation/formats/markdown_syntax.ts";
import { LIMITS } from "../schemas/translation.ts";
import { firstDifference } from "./first_difference.ts";
import { structureOf, wordsOf } from "../tests/support/document_structure.ts";
import { dropPlaceholders, translateItem, upperCase } from "../tests/support/format_engines.ts";
import { cutWith } from "../tests/support/markdown_reader_cut.ts";
import { seededRandom } from "../tests/support/seeded_random.ts";
import { xmlVocabulary } from "../translation/formats/xml_root.ts";
import { spanFinder } from "../translation/formats/text.ts";
import { EXTENSION_SPANS_MID_LINE } from "../translation/formats/markdown_extensions.ts";
import { xliffTargetsProblem } from "./xliff_targets.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { limit: { type: "string", default: "20000" }, seed: { type: "string", default: "1" } },
});
const FOLDERS = positionals.length > 0
  ? positionals
  : ["/usr/share/doc", "/usr/lib", "node_modules"];
/** Larger files are left out: the service takes 8,000 code points per item. */
const MAX_BYTES = 500_000;

const KINDS = [
  { format: "html", modes: ["webpage", "document"], pattern: /\.x?html?$/i },
  { format: "markdown", modes: ["document", "paragraph"], pattern: /\.(md|markdown)$/i },
  { format: "text", modes: ["subtitle", "message"], pattern: /\.(srt|vtt)$/i },
  { format: "text", modes: ["message", "document"], pattern: /(\.txt|\/README|\/copyright)$/ },
  { format: "xml", modes: ["paragraph", "message"], pattern: /\.(xml|xliff|xlf|svg|xsl)$/i },
] as const;
type Kind = typeof KINDS[number];

/** Files under `folder` (no symbolic links followed), by kind. */
function collect(folder: string, found: Map<Kind, string[]>): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(folder)];
  } catch {
    return; // unreadable folders are skipped
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory) collect(path, found);
    if (!entry.isFile) continue;
    const kind = KINDS.find((candidate) => candidate.pattern.test(path));
    if (kind) found.get(kind)!.push(path);
  }
}

/** Up to `limit` paths drawn at random (seeded), in a stable order. */
function sample(paths: string[], limit: number, random: () => number): string[] {
  const shuffled = [...paths].sort();
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  return shuffled.slice(0, limit);
}

function readUtf8(path: string): string | undefined {
  try {
    if (Deno.statSync(path).size > MAX_BYTES) return undefined;
    return new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(path));
  } catch {
    return undefined; // not UTF-8, or gone
  }
}

/** The first item's worth of a file: at most the service's code points per item. */
function firstItem(text: string): string {
  return [...text].slice(0, LIMITS.max_chars_per_item).join("");
}

/**
 * An XLIFF file's problem as `output` answers it (undefined: none; or not an XLIFF file, null),
 * `matches` comparing a unit's source content with its new target's.
 */
function xliffProblem(
  text: string,
  output: string,
  matches: (source: string, target: string) => boolean,
): string | undefined | null {
  const vocabulary = xmlVocabulary(text);
  if (typeof vocabulary !== "object") return null;
  return xliffTargetsProblem(text, output, vocabulary, matches);
}

/** The item through the format layer with every segment given back unchanged. */
function roundTrip(text: string, format: Kind["format"], mode: string): string {
  const cut = FORMATS[format].cut(text, { mode, preserveFormatting: false });
  visibleText(cut);
  return cut.assemble(
    cut.segments.map((segment) => (render) =>
      segment.translatable ? segment.restore(segment.text, render)! : segment.fromRuns([], render)
    ),
  );
}

/** A round trip's target is its source's copy. */
const isSame = (source: string, target: string) => source === target;
const found = new Map<Kind, string[]>(KINDS.map((kind) => [kind, []]));
for (const folder of FOLDERS) collect(folder, found);
const random = seededRandom(Number(values.seed));
let failed = 0;
for (const kind of KINDS) {
  const tally = { identical: 0, changed: 0, threw: 0, unread: 0, megabytes: 0, ms: 0 };
  for (const path of sample(found.get(kind)!, Number(values.limit), random)) {
    const text = readUtf8(path);
    if (text === undefined) {
      tally.unread++;
      continue;
    }
    for (const mode of kind.modes) {
      const start = performance.now();
      try {
        const output = roundTrip(text, kind.format, mode);
        tally.ms += performance.now() - start;
        tally.megabytes += text.length / 1e6;
        const xliff = kind.format === "xml" ? xliffProblem(text, output, isSame) : null;
        const at = firstDifference(output, text);
        const problem = xliff !== null
          ? xliff
          : output === text
          ? undefined
          : `at ${at}: ${JSON.stringify(text.slice(at, at + 60))}`;
        if (problem === undefined) tally.identical++;
        else if (++tally.changed <= 5) console.log(`changed: ${path} (${mode}) ${problem}`);
      } catch (error) {
        if (++tally.threw <= 5) {
          console.log(`threw: ${path} (${mode}): ${String(error).slice(0, 200)}`);
        }
      }
    }
  }
  failed += tally.changed + tally.threw;
  console.log(
    `${kind.format} ${kind.pattern.source} (${
      kind.modes.join(", ")
    }): ${tally.identical} identical, ` +
      `${tally.changed} changed, ${tally.threw} threw, ${tally.unread} not read (not UTF-8 or over ` +
      `${MAX_BYTES / 1000} KB); ${tally.megabytes.toFixed(1)} MB in ${
        (tally.ms / 1000).toFixed(1)
      } s ` +
      `(${(tally.ms / tally.megabytes).toFixed(0)} ms/MB)`,
  );
}

/**
 * The words a format keeps from the engine by design: those inside the interpolation variables
 * and ICU skeletons the mode protects (a Jinja page's `{{ name }}`, Node's `{boolean}`, MyST's
 * `{doc}`), and in Markdown inside the extensions' syntax (MDX expressions: Node's type notes
 * `{string|symbol}`, `{integer\[]}`). Counted by word, so such a word is excused wherever else
 * it stands too.
 */
function keptWords(text: string, format: string, mode: string): Set<string> {
  const spans = spanFinder(mode)(text);
  if (format === "markdown") spans.push(...EXTENSION_SPANS_MID_LINE(text));
  return new Set(spans.flatMap(([start, end]) => wordsOf(text.slice(start, end))));
}

// Through engines that change the text (upper-case it; also drop every placeholder, so the
// fallback runs), the document's skeleton must stay as the tests' independent oracle reads it
// (parse5 and mdast), and every word a reader sees must go to the engine.
const ENGINES = [["upper-casing", upperCase], ["placeholder-dropping", dropPlaceholders]] as const;
for (const kind of [KINDS[0], KINDS[1]]) {
  const tally = { documents: 0, skeletons: 0, unsent: 0 };
  for (const path of sample(found.get(kind)!, Number(values.limit), random)) {
    const text = readUtf8(path);
    if (text === undefined) continue;
    // Markdown as the service takes it (one item, its limit); whole HTML pages up to 100 KB (the
    // oracle's parse of bigger ones takes long).
    const item = kind.format === "markdown" ? firstItem(text) : text;
    if (item.length > 100_000) continue;
    const document = { text: item, format: kind.format, mode: kind.modes[0] };
    const source = structureOf(document);
    tally.documents++;
    for (const [name, engine] of ENGINES) {
      const result = await translateItem(FORMATS[kind.format], item, engine, {
        mode: document.mode,
      });
      const skeleton = structureOf({ ...document, text: result.text }).skeleton;
      if (!isDeepStrictEqual(skeleton, source.skeleton) && ++tally.skeletons <= 5) {
        console.log(`skeleton changed: ${path} through the ${name} engine`);
      }
      if (engine !== upperCase) continue;
      const sent = new Set(result.sent.flatMap(wordsOf));
      const kept = keptWords(item, kind.format, document.mode);
      const unsent = source.words.filter((word) => !sent.has(word) && !kept.has(word));
      if (unsent.length > 0 && ++tally.unsent <= 5) {
        console.log(`not sent: ${path}: ${unsent.slice(0, 5).join(" ")}`);
      }
    }
  }
  failed += tally.skeletons + tally.unsent;
  console.log(
    `${kind.format} through translating engines: ${tally.documents} documents, skeleton changed ` +
      `${tally.skeletons} times, words not sent in ${tally.unsent}`,
  );
}

// XML files of at most one item through both engines, with DeepL's outline detection and with
// every element inline: the sequence of tags (a plain `<…>` match, independent of the cut's
// reading) is the source's; and what each reading sends (segments, placeholders in them).
const xmlTags = { documents: 0, changed: 0 };
const tagsOf = (text: string) => JSON.stringify(text.match(/<[^<>]*>/g) ?? []);
const readings = [
  { name: "outline detection", tags: DEFAULT_TAG_OPTIONS, segments: 0, placeholders: 0 },
  {
    name: "every element inline",
    tags: { ...DEFAULT_TAG_OPTIONS, outlineDetection: false },
    segments: 0,
    placeholders: 0,
  },
];
for (const path of sample(found.get(KINDS[4])!, Number(values.limit), random)) {
  const text = readUtf8(path);
  if (text === undefined || firstItem(text) !== text) continue;
  xmlTags.documents++;
  for (const reading of readings) {
    for (const [name, engine] of ENGINES) {
      const options = { mode: "paragraph", tags: reading.tags };
      const { text: output, sent } = await translateItem(FORMATS.xml, text, engine, options);
      const xliff = xliffProblem(
        text,
        output,
        (source, target) => tagsOf(source) === tagsOf(target),
      );
      const problem = xliff !== null ? xliff : tagsOf(output) === tagsOf(text) ? undefined : "";
      if (problem !== undefined && ++xmlTags.changed <= 5) {
        console.log(`tags changed: ${path} (${name} engine, ${reading.name}) ${problem}`);
      }
      if (name !== ENGINES[0][0]) continue;
      reading.segments += sent.length;
      reading.placeholders += sent.join("").match(/<\/?x\d+\/?>/g)?.length ?? 0;
    }
  }
}
failed += xmlTags.changed;
console.log(
  `xml through translating engines: ${xmlTags.documents} files, tags changed ${xmlTags.changed} ` +
    `times; sent: ${
      readings.map((reading) =>
        `${reading.name} ${reading.segments} segments holding ${reading.placeholders} placeholders`
      ).join(", ")
    }`,
);

// In message mode every address in a text file (a conservative expression of its own: `http(s)://`
// up to white space or brackets, e-mail addresses; trailing punctuation off) comes back as it was.
const ADDRESS = /\bhttps?:\/\/[^\s<>()"'`[\]{}]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/gi;
const addresses = { documents: 0, kept: 0, lost: 0 };
for (const path of sample(found.get(KINDS[3])!, Number(values.limit), random)) {
  const text = readUtf8(path);
  if (text === undefined) continue;
  const item = firstItem(text);
  const written = [...item.matchAll(ADDRESS)].map((match) => match[0].replace(/[.,;:!?*_~]+$/, ""));
  if (written.length === 0) continue;
  addresses.documents++;
  for (const [name, engine] of ENGINES) {
    const output = (await translateItem(FORMATS.text, item, engine, { mode: "message" })).text;
    for (const address of written) {
      if (output.includes(address)) addresses.kept++;
      else if (++addresses.lost <= 5) console.log(`${address} lost in ${path} (${name} engine)`);
    }
  }
}
failed += addresses.lost;
console.log(
  `message mode, addresses in ${addresses.documents} text files through both engines: ` +
    `${addresses.kept} kept, ${addresses.lost} lost`,
);

// Which reader takes a Markdown item (at most the service's per-item limit), and at what cost; and
// wherever a fast reader reads an item or a whole file, its cut must be micromark's.
const readers = { scanner: [0, 0], marked: [0, 0], micromark: [0, 0] };
const FAST_READERS = [["scanner", scanSyntax], ["marked", markedSyntax]] as const;
const compared = { scanner: [0, 0], marked: [0, 0] };
const markdown = found.get(KINDS[1])!;
for (const path of sample(markdown, Number(values.limit), random)) {
  const text = readUtf8(path);
  if (text === undefined) continue;
  const item = firstItem(text);
  const start = performance.now();
  const reader = scanSyntax(item)
    ? "scanner"
    : markedSyntax(item)
    ? "marked"
    : (micromarkSyntax(item), "micromark");
  readers[reader][0]++;
  readers[reader][1] += performance.now() - start;
  for (const source of item === text ? [item] : [item, text]) {
    const reference = JSON.stringify(cutWith(source, micromarkSyntax));
    for (const [name, read] of FAST_READERS) {
      const tree = read(source);
      if (!tree) continue;
      compared[name][0]++;
      if (JSON.stringify(cutWith(source, () => tree)) === reference) continue;
      if (++compared[name][1] <= 5) {
        console.log(`${name} cuts ${path} (${source.length} characters) unlike micromark`);
      }
    }
  }
}
console.log(
  `Markdown items of at most ${LIMITS.max_chars_per_item} code points, by reader: ` +
    Object.entries(readers).map(([name, [count, ms]]) =>
      `${name} ${count} (${
        count ? (ms / count).toFixed(2) : "-"
      } ms each, readers before it included)`
    ).join(", "),
);
console.log(
  `cut as micromark cuts (items and whole files a fast reader read): ` +
    Object.entries(compared).map(([name, [read, unlike]]) => `${name} ${read - unlike} of ${read}`)
      .join(", "),
);
failed += compared.scanner[1] + compared.marked[1];

// Wherever the HTML scanner reads a file, its tokens must be parse5's.
const htmlScanner = { read: 0, unlike: 0 };
for (const path of sample(found.get(KINDS[0])!, Number(values.limit), random)) {
  const text = readUtf8(path);
  const scanned = text === undefined ? undefined : scannedTokens(text);
  if (scanned === undefined) continue;
  htmlScanner.read++;
  if (isDeepStrictEqual(scanned, parse5Tokens(text!))) continue;
  if (++htmlScanner.unlike <= 5) console.log(`the HTML scanner reads ${path} unlike parse5`);
}
console.log(
  `HTML files the scanner read as parse5 does: ${htmlScanner.read - htmlScanner.unlike} of ` +
    `${htmlScanner.read}`,
);
failed += htmlScanner.unlike;
if (failed > 0) Deno.exitCode = 1;
