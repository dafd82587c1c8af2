/**
 * The format layer's cost (BENCHMARKS.md, "Formats"):
 *
 * 1. documents per second through the real app (`app.fetch` in-process, no socket) with the
 *    echo engine, for the corpus of tests/fixtures/documents/, against the same visible text
 *    sent as plain text (one item, paragraph mode: detection, JSON and the engine call on the
 *    same visible text): the difference is the format layer's share of the time. Two checks:
 *    the same text in the same segments (document mode, one paragraph per segment, so the
 *    engine gets as many pieces), and the format layer timed alone (cut, visible text,
 *    restore, assemble);
 * 2. growth with size: one request of 5,000 code points of HTML against 50,000 (the service's
 *    limit, 10 items of 5,000), the format layer called directly on a 100 KB and a 1 MB page,
 *    and on shapes that once grew with the square of their length (8,000 against 64,000);
 * 3. with `--tiny-model`: how often the built-in engine's tiny random-weight model breaks the
 *    placeholders, so that the fallback runs (read from the service's log line).
 *
 * Run: deno task bench:formats [--rounds 7] [--warm-up 5] [--tiny-model]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTranslationApp } from "../app/translation_app.ts";
import { loadLanguageDetector } from "../detection/language_detector.ts";
import { EnginePipeline } from "../engines/engine_pipeline.ts";
import { createEnginePipeline } from "../engines/engine_registry.ts";
import { SettingsSchema } from "../schemas/settings.ts";
import { SettingsStore } from "../settings/settings_store.ts";
import { FORMATS, visibleText } from "../translation/formats/formats.ts";
import { createEchoEngine } from "./echo_engine.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    rounds: { type: "string", default: "7" },
    "warm-up": { type: "string", default: "5" },
    "tiny-model": { type: "boolean" },
  },
});
const ROUNDS = Number(values.rounds);
const WARM_UP_PASSES = Number(values["warm-up"]);
const CORPUS_DIR = new URL("../tests/fixtures/documents/", import.meta.url);
const TOKEN = "bench-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

interface Document {
  name: string;
  text: string;
  format: "text" | "html" | "markdown";
  mode: string;
}

function loadCorpus(): Document[] {
  return [...Deno.readDirSync(CORPUS_DIR)].map((entry) => entry.name).sort().map((name) => {
    const text = Deno.readTextFileSync(new URL(name, CORPUS_DIR));
    if (name.endsWith(".html")) return { name, text, format: "html", mode: "webpage" };
    if (name.endsWith(".md")) return { name, text, format: "markdown", mode: "document" };
    if (/\.(srt|vtt)$/.test(name)) return { name, text, format: "text", mode: "subtitle" };
    return {
      name,
      text,
      format: "text",
      mode: name.startsWith("document") ? "document" : "message",
    };
  });
}

async function service(pipeline: EnginePipeline, log?: (line: string) => void) {
  const dir = await Deno.makeTempDir({ prefix: "tolk-format-bench-" });
  const configPath = join(dir, "settings.json");
  await Deno.writeTextFile(configPath, JSON.stringify({ api: { enabled: true, token: TOKEN } }));
  const { app } = createTranslationApp({
    settings: new SettingsStore(configPath),
    detector: await loadLanguageDetector(),
    pipeline,
    log: log ?? (() => {}),
  });
  // The client's own work is left out of the time: bodies are serialised before the clock starts
  // (`wire`) and an answer is taken as the bytes a socket would carry, not parsed.
  return async (body: Wire) => {
    const response = await app.fetch(
      new Request("http://127.0.0.1/v1/translate", {
        method: "POST",
        headers: { "content-type": "application/json", "x-svc-token": TOKEN, host: "127.0.0.1" },
        body: body.json,
      }),
    );
    if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
    return await response.arrayBuffer();
  };
}

/** A request body as the client sends it, serialised once. */
interface Wire {
  json: string;
}

function wire(body: unknown): Wire {
  return { json: JSON.stringify(body) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const echo = new EnginePipeline([createEchoEngine()], {
  order: ["local-llm"],
  queues: { "local-llm": { concurrency: 64, maxWaiting: 1024 } },
});
const translate = await service(echo);
const corpus = loadCorpus();
const request = (texts: string[], format = "text", mode = "paragraph") => ({
  source: "en",
  target: "fr",
  texts,
  format,
  mode,
});
const structured = corpus.map((d) => request([d.text], d.format, d.mode));
const structuredWire = structured.map(wire);
const plain = corpus.map((d) => {
  const cut = FORMATS[d.format].cut(d.text, { mode: d.mode, preserveFormatting: false });
  return request([visibleText(cut)]);
});
const plainWire = plain.map(wire);

// The same visible text in the same segments: one paragraph per segment, in document mode, so
// the engine gets as many pieces as the structured request sends.
const segmented = corpus.map((d) => {
  const cut = FORMATS[d.format].cut(d.text, { mode: d.mode, preserveFormatting: false });
  const paragraphs = cut.segments.filter((segment) => segment.translatable)
    .map((segment) => segment.runs.join(" "));
  return wire(request([paragraphs.join("\n\n")], "text", "document"));
});

async function runAll(bodies: Wire[]) {
  for (const body of bodies) await translate(body);
}

// 1. Corpus: structured vs the same visible text as plain text, rounds interleaved.
// Warm-up: the structured path has more code to compile (parsers, placeholders); one pass left
// the first measured rounds paying for the JIT, and after five V8 still moves some of the cut's
// functions to its top tier during the measured rounds (`--warm-up` sets the passes).
for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
  await runAll(structuredWire);
  await runAll(plainWire);
  await runAll(segmented);
}
const structuredMs: number[] = [];
const plainMs: number[] = [];
const segmentedMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  structuredMs.push(await timed(() => runAll(structuredWire)));
  plainMs.push(await timed(() => runAll(plainWire)));
  segmentedMs.push(await timed(() => runAll(segmented)));
}
const share = structuredMs.map((ms, i) => (ms - plainMs[i]) / ms);
const segmentedShare = structuredMs.map((ms, i) => (ms - segmentedMs[i]) / ms);

/** The format layer alone, as a request runs it: cut, visible text, restore, assemble. */
function formatLayer(document: Document): string {
  const cut = FORMATS[document.format].cut(document.text, {
    mode: document.mode,
    preserveFormatting: false,
  });
  visibleText(cut);
  return cut.assemble(
    cut.segments.map((segment) => (render) =>
      segment.translatable ? segment.restore(segment.text, render)! : segment.fromRuns([], render)
    ),
  );
}
corpus.forEach(formatLayer); // warm-up (JIT)
const layerMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  layerMs.push(await timed(() => Promise.resolve(corpus.forEach(formatLayer))));
}
// The same calls with the previous document's language detection in between, as consecutive
// requests have it: detection (cld3's WebAssembly and eld's tables) leaves the cut's code and
// data out of the core's caches, which is most of why the layer costs more inside requests.
const detector = await loadLanguageDetector();
const visible = plain.map((body) => body.texts[0]);
const layerAfterDetectionMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  let ms = 0;
  corpus.forEach((document, index) => {
    detector.detect(visible[(index + corpus.length - 1) % corpus.length]);
    const start = performance.now();
    formatLayer(document);
    ms += performance.now() - start;
  });
  layerAfterDetectionMs.push(ms);
}
// The same comparison per format, to show where the time goes.
const perFormat: string[] = [];
for (const format of ["html", "markdown", "text"] as const) {
  const own = corpus.flatMap((d, i) => d.format === format ? [i] : []);
  const formatMs: number[] = [];
  const plainFormatMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    formatMs.push(await timed(() => runAll(own.map((i) => structuredWire[i]))));
    plainFormatMs.push(await timed(() => runAll(own.map((i) => plainWire[i]))));
  }
  const formatShare = formatMs.map((ms, i) => (ms - plainFormatMs[i]) / ms);
  perFormat.push(
    `${format} (${own.length} documents): ${(median(formatMs) / own.length).toFixed(2)} ms per ` +
      `document vs ${(median(plainFormatMs) / own.length).toFixed(2)} ms as plain text, ` +
      `format layer ${(median(formatShare) * 100).toFixed(1)}%`,
  );
}
console.log(
  `corpus: ${corpus.length} documents, ${WARM_UP_PASSES} warm-up passes, ${ROUNDS} rounds`,
);
console.log(
  `  structured: median ${median(structuredMs).toFixed(1)} ms per corpus, ` +
    `${(corpus.length / median(structuredMs) * 1000).toFixed(0)} documents/s`,
);
console.log(
  `  same visible text as plain text: median ${median(plainMs).toFixed(1)} ms, ` +
    `${(corpus.length / median(plainMs) * 1000).toFixed(0)} documents/s`,
);
console.log(`  format layer share of the time: median ${(median(share) * 100).toFixed(1)}%`);
console.log(
  `  same visible text as plain text in the same segments (document mode): median ` +
    `${median(segmentedMs).toFixed(1)} ms; format layer share against it: median ` +
    `${(median(segmentedShare) * 100).toFixed(1)}%`,
);
console.log(
  `  format layer alone (called directly): median ${median(layerMs).toFixed(1)} ms per corpus, ` +
    `${(median(layerMs) / median(structuredMs) * 100).toFixed(1)}% of the structured time; ` +
    `with a detection before each document: ${median(layerAfterDetectionMs).toFixed(1)} ms`,
);
for (const line of perFormat) console.log(`  ${line}`);

// 2. Growth with size.
const block = corpus.find((d) => d.name === "news_article.html")!.text
  .replace(/^[\s\S]*<main>/, "").replace(/<\/main>[\s\S]*$/, "");
function htmlOf(codePoints: number): string {
  let html = "";
  while ([...html].length < codePoints) html += block;
  return [...html].slice(0, codePoints).join("");
}
const small = wire(request([htmlOf(5000)], "html", "webpage"));
const large = wire(request(Array.from({ length: 10 }, () => htmlOf(5000)), "html", "webpage"));
await translate(small);
await translate(large);
const smallMs: number[] = [];
const largeMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  smallMs.push(await timed(() => translate(small)));
  largeMs.push(await timed(() => translate(large)));
}
console.log(
  `request of 5,000 code points of HTML: median ${median(smallMs).toFixed(1)} ms; ` +
    `50,000 (10 items): ${median(largeMs).toFixed(1)} ms; ratio ` +
    `${(median(largeMs) / median(smallMs)).toFixed(2)} for 10x the size`,
);

const page = (bytes: number) => {
  let html = "<!DOCTYPE html><html><body>";
  while (html.length < bytes) html += block;
  return html + "</body></html>";
};
for (const bytes of [100_000, 1_000_000]) {
  const html = page(bytes);
  const times: number[] = [];
  let segments = 0;
  // One warm-up run (JIT), then the measured rounds.
  for (let round = -1; round < Math.max(3, Math.floor(ROUNDS / 2)); round++) {
    const time = await timed(() => {
      const cut = FORMATS.html.cut(html, { mode: "webpage", preserveFormatting: false });
      segments = cut.segments.length;
      const output = cut.assemble(
        cut.segments.map((segment) => (render) => segment.restore(segment.text, render)!),
      );
      if (output !== html) throw new Error("identity round trip changed the page");
      return Promise.resolve();
    });
    if (round >= 0) times.push(time);
  }
  const ms = median(times);
  console.log(
    `format layer direct (cut + restore + assemble), ${(html.length / 1e6).toFixed(2)} MB page, ` +
      `${segments} segments: median ${ms.toFixed(0)} ms (${
        (ms / (html.length / 1e6)).toFixed(0)
      } ms/MB)`,
  );
}
// Shapes that made the cut grow with the square of their length until it was fixed (deeply
// nested inline elements, nested blocks that end an open `<p>`, a paragraph of escapes, runs of
// inline tags, lazy lines, unpaired delimiters and brackets, which went to micromark or marked):
// 8,000 code points (an item's limit) against 64,000, called directly; linear growth gives
// about 8.
const shapes = {
  "html, <i> nested around one word": (n: number) =>
    "<p>" + "<i>".repeat(n / 8) + "word" + "</i>".repeat(n / 8) + "</p>",
  "html, inline tags in one sentence": (n: number) => "<p>" + "<b>a</b> ".repeat(n / 9) + "</p>",
  "html, <ul><li> nested": (n: number) => "<ul><li>a".repeat(n / 9),
  "html, <div><p> nested": (n: number) => "<div><p>a".repeat(n / 9),
  "html, stray end tags under nested <div>": (n: number) =>
    "<div>".repeat(n / 10) + "</x>".repeat(n / 8),
  "markdown, a paragraph of escapes": (n: number) => "Stars " + "\\*".repeat(n / 2 - 3),
  "markdown, emphasis and links": (n: number) => "*a* [b](c) ".repeat(n / 11),
  "markdown, a list item with lazy lines": (n: number) => "- a\n" + "b\n".repeat(n / 2 - 2),
  "markdown, a footnote definition with lazy lines": (n: number) =>
    "[^1]: a\n" + "b\n".repeat(n / 2 - 4),
  "markdown, emphasis delimiters pairing with nothing": (n: number) => "a*_".repeat(n / 3),
  "markdown, inline tags on one line": (n: number) => "a " + "<b>x".repeat(n / 4 - 1),
  "markdown, comments and instructions never closed": (n: number) =>
    "a " + "<!--<?".repeat(n / 6 - 1),
  "markdown, `]` closing nothing after a CR": (n: number) => "a\r" + "]".repeat(n - 2),
  // A processing instruction (an HTML block of kind 3): the scanner declines, micromark reads.
  "markdown, `]` closing nothing (micromark)": (n: number) => "<?x ?>\n\nb " + "]".repeat(n - 10),
};
for (const [name, make] of Object.entries(shapes)) {
  const format = name.startsWith("html") ? "html" : "markdown";
  const cutOf = (text: string) => () => {
    const cut = FORMATS[format].cut(text, { mode: "document", preserveFormatting: false });
    cut.assemble(cut.segments.map((segment) => (render) => segment.restore(segment.text, render)!));
    return Promise.resolve();
  };
  const [small, large] = [make(8000), make(64000)].map(cutOf);
  await small();
  await large();
  const smallMs: number[] = [];
  const largeMs: number[] = [];
  for (let round = 0; round < 5; round++) {
    smallMs.push(await timed(small));
    largeMs.push(await timed(large));
  }
  console.log(
    `growth, ${name}: 8,000 code points ${median(smallMs).toFixed(1)} ms, 64,000 ` +
      `${median(largeMs).toFixed(1)} ms (×${(median(largeMs) / median(smallMs)).toFixed(1)})`,
  );
}
await echo.close();

// 3. How often the tiny built-in model breaks placeholders.
if (values["tiny-model"]) {
  const logs: string[] = [];
  const pipeline = createEnginePipeline(
    SettingsSchema.parse({ engines: { "local-llm": { model: "tolk-test/tiny-nllb" } } }),
    {
      modelsDir: new URL("../tests/fixtures/models/", import.meta.url).pathname,
      maxNewTokens: 8,
    },
  );
  const tiny = await service(pipeline, (line) => logs.push(line));
  let sent = 0;
  let withPlaceholders = 0;
  let broken = 0;
  let documentsWithFallback = 0;
  for (const [index, body] of structured.entries()) {
    const document = corpus[index];
    const cut = FORMATS[document.format].cut(document.text, {
      mode: document.mode,
      preserveFormatting: false,
    });
    const texts = cut.segments.filter((segment) => segment.translatable).map((s) => s.text);
    const distinct = document.mode === "webpage" ? [...new Set(texts)] : texts;
    sent += distinct.length;
    withPlaceholders += distinct.filter((text) => /<\/?x\d+\/?>/.test(text)).length;
    const before = logs.length;
    await tiny(wire({ ...body, options: { engine: "local-llm" } }));
    const line = logs.slice(before).find((entry) => entry.includes("format fallback"));
    const counts = /format fallback: (\d+) of (\d+) segments/.exec(line ?? "");
    if (counts) {
      documentsWithFallback++;
      broken += Number(counts[1]);
    }
  }
  console.log(
    `tiny built-in model: fallback in ${documentsWithFallback} of ${corpus.length} documents; ` +
      `${sent} segments sent, ${withPlaceholders} of them with placeholders; ${broken} came back ` +
      `unusable (placeholders broken, or a subtitle cue's answer that would add or end a cue) ` +
      `and were put back by the fallback`,
  );
  await pipeline.close();
}
// The built-in engine's model worker lives as long as the process (engines/builtin/
// model_worker_client.ts): closing the pipeline releases the model, not the thread.
Deno.exit(0);
