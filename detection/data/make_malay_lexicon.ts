/**
 * Regenerates `malay_lexicon.json`: the words that Tesseract's Indonesian word list has and its
 * Malay list lacks, and the reverse. Both lists come from Google's tessdata_fast models
 * (Apache-2.0), which Debian ships as tesseract-ocr-ind and tesseract-ocr-msa; they were built from
 * web text, so words shared by the two standards sit in both and drop out here.
 *
 * Needs: apt-get install tesseract-ocr tesseract-ocr-ind tesseract-ocr-msa
 * Usage: deno run --allow-run --allow-read --allow-write detection/data/make_malay_lexicon.ts
 */
import { join } from "node:path";

const TESSDATA_PACKAGES = { ind: "tesseract-ocr-ind", msa: "tesseract-ocr-msa" } as const;
/** Lower-case letters with inner hyphens (anak-anak): the tokens the detector looks up. */
const WORD = /^\p{L}+(?:-\p{L}+)*$/u;

async function run(command: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(command, { args, stderr: "piped" }).output();
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed:\n${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return new TextDecoder().decode(output.stdout);
}

/** The package's traineddata file and the package version, from dpkg. */
async function trainedData(pkg: string): Promise<{ path: string; version: string }> {
  const files = (await run("dpkg", ["-L", pkg])).split("\n");
  const path = files.find((file) => file.endsWith(".traineddata"));
  if (path === undefined) throw new Error(`${pkg} lists no .traineddata; is it installed?`);
  const version = (await run("dpkg-query", ["-W", "-f", "${Version}", pkg])).trim();
  return { path, version };
}

/** Every word of one model's LSTM word list, lower-cased. */
async function wordList(lang: string, path: string, work: string): Promise<Set<string>> {
  const prefix = join(work, `${lang}.`);
  await run("combine_tessdata", ["-u", path, prefix]);
  const listPath = join(work, `${lang}.words`);
  await run("dawg2wordlist", [`${prefix}lstm-unicharset`, `${prefix}lstm-word-dawg`, listPath]);
  const words = new Set<string>();
  for (const line of (await Deno.readTextFile(listPath)).split("\n")) {
    const word = line.trim().toLowerCase();
    if (WORD.test(word)) words.add(word);
  }
  return words;
}

const onlyIn = (a: Set<string>, b: Set<string>) => [...a].filter((word) => !b.has(word)).sort();

const work = await Deno.makeTempDir({ prefix: "tolk-lexicon-" });
try {
  const ind = await trainedData(TESSDATA_PACKAGES.ind);
  const msa = await trainedData(TESSDATA_PACKAGES.msa);
  const indonesian = await wordList("ind", ind.path, work);
  const malay = await wordList("msa", msa.path, work);
  const lexicon = {
    source:
      `tessdata_fast ind and msa LSTM word lists (Debian ${TESSDATA_PACKAGES.ind} ${ind.version}, ${TESSDATA_PACKAGES.msa} ${msa.version})`,
    licence: "Apache-2.0, Copyright 2006-2022 Google Inc. (github.com/tesseract-ocr/tessdata_fast)",
    generator: "detection/data/make_malay_lexicon.ts",
    indonesian_only: onlyIn(indonesian, malay).join(" "),
    malay_only: onlyIn(malay, indonesian).join(" "),
  };
  const out = new URL("./malay_lexicon.json", import.meta.url);
  // Indented as `deno fmt` writes JSON, so a rebuild leaves the committed file unchanged.
  await Deno.writeTextFile(out, JSON.stringify(lexicon, null, 2) + "\n");
  console.log(
    `wrote ${out.pathname}: ${lexicon.indonesian_only.split(" ").length} Indonesian-only, ${
      lexicon.malay_only.split(" ").length
    } Malay-only words`,
  );
} finally {
  await Deno.remove(work, { recursive: true });
}
