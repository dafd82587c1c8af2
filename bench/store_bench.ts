/**
 * Data benchmark (issue 12, point 8): glossary matching and checking with 10,000 entries on a
 * 128-item request; memory lookups among 1,000,000 entries (exact and fuzzy); history inserts.
 *
 * Usage: deno task bench:store [--memory-entries N] [--rounds N] [--rebuild]
 * The memory database is built once (one transaction) and kept in bench/.store/ (gitignored),
 * named by the generator's version, the schema version and a fingerprint of the memory keys
 * and sketch, so a change to any of them builds a new one; `--rebuild` forces it.
 */
import { join } from "node:path";
import { type Database, openDatabase, schemaVersion } from "../storage/database.ts";
import { HistoryStore } from "../storage/history_store.ts";
import { bandKeys, memoryKey, shingles } from "../storage/memory_sketch.ts";
import { MemoryStore, type NewMemoryEntry } from "../storage/memory_store.ts";
import { termChecker } from "../translation/glossary/term_check.ts";
import { type GlossaryTerm, TermMatcher } from "../translation/glossary/term_matcher.ts";
import { historyEntry } from "../tests/support/history_entries.ts";

const args = Object.fromEntries(
  Deno.args.flatMap((arg, i, all) => arg.startsWith("--") ? [[arg.slice(2), all[i + 1]]] : []),
);
const MEMORY_ENTRIES = Number(args["memory-entries"] ?? 1_000_000);
/** Timed rounds of each lookup (1,000 by default: the p99 of fewer is little more than the maximum). */
const ROUNDS = Number(args.rounds ?? 1000);
const REBUILD = Deno.args.includes("--rebuild");
const WARM_UP_ROUNDS = 20;
/** Bump when the texts below change: cached memory databases of other versions are not used. */
const GENERATOR_VERSION = 1;
const STORE_DIR = new URL("./.store/", import.meta.url).pathname;

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
  // A running service has matched many requests before: the first rounds only warm the JIT up.
  for (let round = -WARM_UP_ROUNDS; round < ROUNDS; round++) {
    const start = performance.now();
    matched = 0;
    items.forEach((item, index) => {
      const matches = matcher.match(item);
      matched += matches.length;
      const applied = termChecker(outputs[index], "de");
      for (const match of matches) applied(match.term);
    });
    if (round >= 0) times.push(performance.now() - start);
  }
  report(
    `glossary match + check, 128 items x ~200 chars, 10000 entries (${matched} matches)`,
    times,
  );
}

// --- The same for a script without spaces: 10,000 Chinese terms of 2–4 characters, matched as
// substrings (the character trie), on 128 items of ~100 characters. Its own generator, so the
// texts of the other parts stay the same.
{
  const nextHan = random(7);
  const han = (count: number) =>
    Array.from(
      { length: count },
      () => String.fromCharCode(0x4e00 + Math.floor(nextHan() * 1500)),
    ).join("");
  const vocabulary = Array.from({ length: 5000 }, () => han(2 + Math.floor(nextHan() * 2)));
  const terms: GlossaryTerm[] = [];
  const seen = new Set<string>();
  while (terms.length < 10_000) {
    const source = nextHan() < 0.05
      ? vocabulary[Math.floor(nextHan() * vocabulary.length)]
      : han(2 + Math.floor(nextHan() * 3));
    if (seen.has(source)) continue;
    seen.add(source);
    terms.push({ source, target: `T${terms.length}` });
  }
  const matcher = new TermMatcher(terms, "zh-Hans");
  const items = Array.from(
    { length: 128 },
    () =>
      Array.from({ length: 40 }, () => vocabulary[Math.floor(nextHan() * vocabulary.length)])
        .join("").slice(0, 100),
  );
  const times: number[] = [];
  let matched = 0;
  for (let round = -WARM_UP_ROUNDS; round < ROUNDS; round++) {
    const start = performance.now();
    matched = 0;
    for (const item of items) {
      const matches = matcher.match(item);
      matched += matches.length;
      const applied = termChecker(item, "en");
      for (const match of matches) applied(match.term);
    }
    if (round >= 0) times.push(performance.now() - start);
  }
  report(
    `glossary match + check, zh-Hans, 128 items x ~100 chars, 10000 entries (${matched} matches)`,
    times,
  );
}

// --- Memory: N entries (built once and cached), then exact and fuzzy lookups.
const dir = await Deno.makeTempDir({ prefix: "tolk-store-bench-" });
try {
  // The texts are generated every run, cached or not, so the lookups below draw the same ones.
  // 5,000 texts to look up, spread over the whole database (not only its first pages).
  const stored: string[] = [];
  const every = Math.max(1, Math.floor(MEMORY_ENTRIES / 5000));
  let generated = 0;
  const batches: NewMemoryEntry[][] = [];
  for (let done = 0; done < MEMORY_ENTRIES; done += 10_000) {
    batches.push(Array.from({ length: Math.min(10_000, MEMORY_ENTRIES - done) }, () => {
      const source = sentence(6 + Math.floor(next() * 8));
      if (generated++ % every === 0) stored.push(source);
      return { sourceLang: "en", targetLang: "de", source, target: `DE ${source}` };
    }));
  }
  const database = openMemoryDatabase(batches);
  const memory = new MemoryStore(database);
  // First, exact lookups as the file was opened: only what the OS happens to keep of it in its
  // page cache (a service just started). Odd texts here, even ones below, so the timed pass
  // finds no page this one read.
  const cold: number[] = [];
  for (const source of stored.filter((_, i) => i % 2 === 1)) {
    const start = performance.now();
    if (memory.exact("en", "de", source) === null) throw new Error("exact miss");
    cold.push(performance.now() - start);
  }
  report(`memory exact lookup among ${MEMORY_ENTRIES}, just opened`, cold);
  // Then as a service that has run a while: the whole file read once into the OS page cache.
  for await (const _ of (await Deno.open(database.path)).readable) {
    // only reading
  }
  const exact: number[] = [];
  const fuzzy: number[] = [];
  const fuzzyMiss: number[] = [];
  let fuzzyHits = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const source = stored[2 * Math.floor(next() * (stored.length / 2))];
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
  report(`memory exact lookup among ${MEMORY_ENTRIES} (file in the OS cache)`, exact);
  report(
    `memory fuzzy lookup among ${MEMORY_ENTRIES} (one word changed; found ${fuzzyHits}/${fuzzy.length})`,
    fuzzy,
  );
  report(`memory fuzzy lookup among ${MEMORY_ENTRIES} (unrelated text)`, fuzzyMiss);
  database.close();

  // --- History: one transaction per row (`record`; the service batches a turn's rows, recordSoon).
  const historyDb = openDatabase(join(dir, "history.sqlite3"));
  const history = new HistoryStore(historyDb);
  const rows = 5000;
  const start = performance.now();
  for (let i = 0; i < rows; i++) {
    history.record(historyEntry(i, {
      mode: "paragraph",
      format: "text",
      texts: [sentence(20)],
      translations: [sentence(20)],
    }));
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `history insert: ${
      Math.round(rows / seconds)
    } rows/s (${rows} rows, one transaction each, WAL, synchronous=normal)`,
  );
  historyDb.close();

  // --- Memory writes as the service makes them: one request's 128 new translations in one
  // transaction, into a database that grows (so WAL checkpoints happen along the way).
  const writeDb = openDatabase(join(dir, "writes.sqlite3"));
  const writes = new MemoryStore(writeDb);
  const writeTimes: number[] = [];
  for (let round = 0; round < 200; round++) {
    const entries = Array.from({ length: 128 }, () => {
      const source = sentence(6 + Math.floor(next() * 8));
      return { sourceLang: "en", targetLang: "de", source, target: `DE ${source}` };
    });
    const start = performance.now();
    writes.add(entries, "engine");
    writeTimes.push(performance.now() - start);
  }
  report(
    "memory write, 128 new entries in one transaction (max " +
      `${Math.max(...writeTimes).toFixed(1)} ms)`,
    writeTimes,
  );
  writeDb.close();
} finally {
  await Deno.remove(dir, { recursive: true });
}

/**
 * The cached memory database of these entries, built first when there is none: one
 * transaction, the store's own prepared statements, a page cache large enough for the indexes.
 */
function openMemoryDatabase(batches: readonly NewMemoryEntry[][]): Database {
  const probe = openDatabase(":memory:");
  const sample = memoryKey("the quick brown fox jumps over the lazy dog");
  const fingerprint = `s${schemaVersion(probe)}-${
    bandKeys(shingles(sample), "en>de")[0].toString(36)
  }`;
  probe.close();
  const file = join(
    STORE_DIR,
    `memory-g${GENERATOR_VERSION}-${fingerprint}-${MEMORY_ENTRIES}.sqlite3`,
  );
  if (!REBUILD && exists(file)) {
    console.log(`memory database: ${file} (cached; --rebuild builds it again)`);
    return openDatabase(file);
  }
  Deno.mkdirSync(STORE_DIR, { recursive: true });
  const building = `${file}.building`;
  for (const path of [file, building].flatMap((p) => [p, `${p}-wal`, `${p}-shm`])) {
    if (exists(path)) Deno.removeSync(path);
  }
  const start = performance.now();
  const database = openDatabase(building);
  database.db.exec("pragma cache_size = -1048576"); // 1 GiB: the band index is written at random
  const memory = new MemoryStore(database);
  database.transaction(() => {
    for (const batch of batches) memory.add(batch, "engine");
  });
  database.close();
  const seconds = (performance.now() - start) / 1000;
  for (const path of [`${building}-wal`, `${building}-shm`]) {
    if (exists(path)) Deno.removeSync(path);
  }
  Deno.renameSync(building, file);
  console.log(
    `memory build: ${MEMORY_ENTRIES} entries in ${seconds.toFixed(1)} s ` +
      `(${Math.round(MEMORY_ENTRIES / seconds)} entries/s, one transaction), file ${
        (Deno.statSync(file).size / 1e6).toFixed(0)
      } MB, cached as ${file}`,
  );
  return openDatabase(file);
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
