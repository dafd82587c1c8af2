/**
 * How glossary matching grows with the number of terms (BENCHMARKS.md, "Glossary matching"): a
 * glossary of N terms that all start with the same word ("the term1" … "the termN", a shape a
 * product glossary has), matched against a text of about 8,000 characters (an item's limit) in
 * which that word stands at every fourth word; and the worst shape the matcher knows, terms of
 * one repeated word against a text of only that word; and a glossary at its limits, terms of 256
 * characters that share no first word, whose preparation once held the service for seconds.
 *
 * Run: deno task bench:glossary [N]   (default 10,000 terms)
 */
import { TermMatcher } from "../translation/glossary/term_matcher.ts";

const count = Number(Deno.args[0] ?? 10000);

function medianMs(work: () => void, rounds = 9): number {
  work();
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

const shapes: [string, string[], string][] = [
  [
    `${count} terms "the termN", a text with "the" every fourth word`,
    Array.from({ length: count }, (_, i) => `the term${i}`),
    "the cat sat on the mat and ".repeat(300),
  ],
  [
    `${count} terms "a a … a N" (up to 20 words), a text of "a " only`,
    Array.from({ length: count }, (_, i) => `${"a ".repeat(1 + (i % 20))}${i}`),
    "a ".repeat(4000),
  ],
  [
    `${count} terms of 256 characters sharing no first word ("wN xxx…")`,
    Array.from({ length: count }, (_, i) => `w${i} ` + "x".repeat(253 - String(i).length)),
    "Read w4321 " + "x".repeat(249) + " now. ".repeat(100),
  ],
];
for (const [name, sources, text] of shapes) {
  let matcher: TermMatcher | undefined;
  const prepare = medianMs(() => {
    matcher = new TermMatcher(sources.map((source) => ({ source, target: "x" })), "en");
  }, 3);
  const match = medianMs(() => matcher!.match(text));
  console.log(
    `${name}: prepare ${prepare.toFixed(0)} ms, match a ${text.length}-character text ` +
      `${match.toFixed(1)} ms`,
  );
}
