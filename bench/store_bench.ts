/**
 * Data benchmark (issue 12, point 8): glossary matching and checking with 10,000 entries on a
 * 128-item request; memory lookups among 1,000,000 entries (exact and fuzzy); history inserts.
 *
 * Usage: deno task bench:store [--memory-entries N] [--rounds N]
 * The memory database is built in a temporary directory and removed afterwards.
 */
import { join } from "node:path";
import { openDatabase } from "../storage/database.ts";
import { HistoryStore } from "../storage/history_store.ts";
import { MemoryStore } from "../storage/memory_store.ts";
import { termChecker } from "../translation/glossary/term_check.ts";
import { type GlossaryTerm, TermMatcher } from "../translation/glossary/term_matcher.ts";

const args = Object.fromEntries(
  Deno.args.flatMap((arg, i, all) => arg.startsWith("--") ? [[arg.slice(2), all[i + 1]]] : []),
);
const MEMORY_ENTRIES = Number(args["memory-entries"] ?? 1_000_000);
const ROUNDS = Number(args.rounds ?? 200);

/** A deterministic generator (mulberry32), so every run measures the same texts. */
function random(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "sto",
  "va",
  "pe",
  "dri",
  "un",
  "tor",
  "ba",
  "sel",
  "qui",
  "mo",
  "nar",
  "fe",
];
function word(): string {
  const length = 1 + Math.floor(next() * 3);
  return Array.from({ length }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join("");
}
const VOCABULARY = Array.from({ length: 5000 }, word);
function sentence(words: number): string {
  return Array.from({ length: words }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)])
    .join(" ") + ".";
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report(name: string, times: number[]) {
  console.log(
    `${name}: p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${
      percentile(times, 99).toFixed(3)
    } ms ` +
      `(${times.length} runs)`,
  );
}

// --- Glossary: 10,000 entries (a fifth of them two words), a 128-item request of ~200 characters.
{
  const terms: GlossaryTerm[] = [];
  const seen = new Set<string>();
  // One entry in twenty is a word of the texts, the rest words the texts never use: a request
  // finds a few terms per item, as with a real glossary.
  const other = () => word().replaceAll("a", "y").replaceAll("o", "w") + "x";
  while (terms.length < 10_000) {
    const pick = () => next() < 0.05 ? VOCABULARY[Math.floor(next() * VOCABULARY.length)] : other();
    const source = next() < 0.2 ? `${pick()} ${pick()}` : pick();
    if (seen.has(source)) continue;
    seen.add(source);
    terms.push({ source, target: next() < 0.1 ? "" : `T${terms.length}` });
  }
  const compileStart = performance.now();
  const matcher = new TermMatcher(terms, "en");
  console.log(
    `glossary compile (10000 entries, once per change): ${
      (performance.now() - compileStart).toFixed(1)
    } ms`,
  );
  const items = Array.from({ length: 128 }, () => sentence(30).slice(0, 200));
  const outputs = items.map((item) => `${item} T1 T2`);
  const times: number[] = [];
  let matched = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    matched = 0;
    items.forEach((item, index) => {
      const matches = matcher.match(item);
      matched += matches.length;
      const applied = termChecker(outputs[index], "de");
      for (const match of matches) applied(match.term);
    });
    times.push(performance.now() - start);
  }
  report(
    `glossary match + check, 128 items x ~200 chars, 10000 entries (${matched} matches)`,
    times,
  );
}

// --- Memory: N entries, then exact and fuzzy lookups.
const dir = await Deno.makeTempDir({ prefix: "tolk-store-bench-" });
try {
  const database = openDatabase(join(dir, "tolk.sqlite3"));
  const memory = new MemoryStore(database);
  const stored: string[] = [];
  const buildStart = performance.now();
  const batch = 10_000;
  for (let done = 0; done < MEMORY_ENTRIES; done += batch) {
    const entries = Array.from({ length: Math.min(batch, MEMORY_ENTRIES - done) }, () => {
      const source = sentence(6 + Math.floor(next() * 8));
      if (stored.length < 5000) stored.push(source);
      return { sourceLang: "en", targetLang: "de", source, target: `DE ${source}` };
    });
    memory.add(entries, "engine");
  }
  const buildSeconds = (performance.now() - buildStart) / 1000;
  const size = Deno.statSync(join(dir, "tolk.sqlite3")).size;
  console.log(
    `memory build: ${MEMORY_ENTRIES} entries in ${buildSeconds.toFixed(1)} s ` +
      `(${Math.round(MEMORY_ENTRIES / buildSeconds)} entries/s), file ${
        (size / 1e6).toFixed(0)
      } MB`,
  );
  const exact: number[] = [];
  const fuzzy: number[] = [];
  const fuzzyMiss: number[] = [];
  let fuzzyHits = 0;
  for (let round = 0; round < Math.max(ROUNDS, 1000); round++) {
    const source = stored[Math.floor(next() * stored.length)];
    let start = performance.now();
    if (memory.exact("en", "de", source) === null) throw new Error("exact miss");
    exact.push(performance.now() - start);
    const words = source.slice(0, -1).split(" ");
    words[Math.floor(next() * words.length)] = word();
    const changed = `${words.join(" ")}.`;
    start = performance.now();
    if (memory.fuzzy("en", "de", changed).length > 0) fuzzyHits++;
    fuzzy.push(performance.now() - start);
    start = performance.now();
    memory.fuzzy("en", "de", sentence(10));
    fuzzyMiss.push(performance.now() - start);
  }
  report(`memory exact lookup among ${MEMORY_ENTRIES}`, exact);
  report(
    `memory fuzzy lookup among ${MEMORY_ENTRIES} (one word changed; found ${fuzzyHits}/${fuzzy.length})`,
    fuzzy,
  );
  report(`memory fuzzy lookup among ${MEMORY_ENTRIES} (unrelated text)`, fuzzyMiss);
  database.close();

  // --- History: one transaction per row, as the service writes them.
  const historyDb = openDatabase(join(dir, "history.sqlite3"));
  const history = new HistoryStore(historyDb);
  const rows = 5000;
  const start = performance.now();
  for (let i = 0; i < rows; i++) {
    history.record({
      id: `tr_${i}`,
      created: 1_800_000_000 + i,
      client: null,
      engine: "local-llm",
      model: "m",
      source: "en",
      target: "de",
      mode: "paragraph",
      format: "text",
      texts: [sentence(20)],
      translations: [sentence(20)],
    });
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `history insert: ${
      Math.round(rows / seconds)
    } rows/s (${rows} rows, one transaction each, WAL, synchronous=normal)`,
  );
  historyDb.close();
} finally {
  await Deno.remove(dir, { recursive: true });
}
