import assert from "node:assert/strict";
import {
  EntriesTextError,
  formatCsv,
  formatTsv,
  parseEntries,
} from "../../../translation/glossary/entries_text.ts";

const ACCEPTED = [
  {
    name: "TSV with a trailing newline",
    format: "tsv",
    text: "cat\tKatze\ndog\tHund\n",
    entries: [["cat", "Katze"], ["dog", "Hund"]],
  },
  {
    name: "TSV with CRLF and blank lines",
    format: "tsv",
    text: "cat\tKatze\r\n\r\ndog\tHund",
    entries: [["cat", "Katze"], ["dog", "Hund"]],
  },
  {
    name: "TSV empty target (do not translate)",
    format: "tsv",
    text: "tolk\t\n",
    entries: [["tolk", ""]],
  },
  {
    name: "TSV terms trimmed and NFC",
    format: "tsv",
    text: " cafe\u0301 \t Café \n",
    entries: [["café", "Café"]],
  },
  {
    name: "CSV quoted comma and doubled quote",
    format: "csv",
    text: '"a, b","say ""hi"""\r\nc,d\r\n',
    entries: [["a, b", 'say "hi"'], ["c", "d"]],
  },
  { name: "CSV empty target", format: "csv", text: "tolk,\n", entries: [["tolk", ""]] },
  { name: "CSV last record without a line end", format: "csv", text: "x,y", entries: [["x", "y"]] },
  {
    name: "terms with zero-width spaces, word joiners and byte order marks, which are left out",
    format: "tsv",
    text: "data\u200Bbase\tDaten\uFEFFbank\n\u2060\u200B tolk\u200B\t\u200B\n",
    entries: [["database", "Datenbank"], ["tolk", ""]],
  },
  {
    name: "terms with a zero-width joiner or non-joiner, which are kept (emoji, scripts)",
    format: "tsv",
    text: "👩\u200D💻\tx\nក\u200Cខ\ty\n",
    entries: [["👩\u200D💻", "x"], ["ក\u200Cខ", "y"]],
  },
  {
    name: "CSV with semicolons, as Excel saves it where the comma is the decimal sign",
    format: "csv",
    text: '\uFEFFdatabase;Datenbank\r\n"a;b";c\r\nx, y;z\r\ntolk;\r\n',
    entries: [["database", "Datenbank"], ["a;b", "c"], ["x, y", "z"], ["tolk", ""]],
  },
  {
    name: "CSV with commas whose first term holds a semicolon",
    format: "csv",
    text: "a;b,c\r\nd,e\r\n",
    entries: [["a;b", "c"], ["d", "e"]],
  },
  {
    name: "term of 256 code points (the limit)",
    format: "tsv",
    text: `${"界".repeat(256)}\tx`,
    entries: [["界".repeat(256), "x"]],
  },
] as const;

for (const { name, format, text, entries } of ACCEPTED) {
  Deno.test(`parseEntries accepts ${name}`, () => {
    assert.deepEqual(
      parseEntries(text, format).map((entry) => [entry.source, entry.target]),
      entries,
    );
  });
}

const REFUSED = [
  {
    name: "a TSV line without a tab",
    format: "tsv",
    text: "cat\tKatze\ndog Hund\n",
    line: 2,
    reason: /2 fields/,
  },
  {
    name: "a TSV line with two tabs",
    format: "tsv",
    text: "a\tb\tc\n",
    line: 1,
    reason: /found 3/,
  },
  {
    name: "an empty source term",
    format: "tsv",
    text: "a\tb\n\tc\n",
    line: 2,
    reason: /source term is empty/,
  },
  {
    name: "a source term twice (case-insensitive)",
    format: "tsv",
    text: "Cat\tKatze\nx\ty\ncat\tMieze\n",
    line: 3,
    reason: /already appears on line 1/,
  },
  {
    name: "a term of 257 code points",
    format: "tsv",
    text: `ok\tfine\n${"界".repeat(257)}\tx\n`,
    line: 2,
    reason: /over 256/,
  },
  {
    name: "a CSV quote left open",
    format: "csv",
    text: 'a,b\n"c,d\n',
    line: 2,
    reason: /not closed/,
  },
  {
    name: "a CSV quote inside an unquoted field",
    format: "csv",
    text: 'a,b"c\n',
    line: 1,
    reason: /quote inside/,
  },
  {
    name: "text after a closing CSV quote",
    format: "csv",
    text: '"a"x,b\n',
    line: 1,
    reason: /after a closing quote/,
  },
  {
    name: "a CSV record with three fields",
    format: "csv",
    text: "a,b\nc,d,e\n",
    line: 2,
    reason: /found 3/,
  },
  {
    name: "a CSV term with a line break",
    format: "csv",
    text: 'a,b\n"two\nlines",x\n',
    line: 2,
    reason: /: a term holds a line break$/,
  },
  {
    name: "a CSV term with a tab",
    format: "csv",
    text: '"a\tb",x\n',
    line: 1,
    reason: /: a term holds a tab$/,
  },
  {
    name: "a term with NUL",
    format: "tsv",
    text: "ok\tfine\nnul\u0000\tx\n",
    line: 2,
    reason: /: a term holds the control character U\+0000$/,
  },
  {
    name: "a target with a lone surrogate",
    format: "tsv",
    text: "term\thalf \ud83d\n",
    line: 1,
    reason: /: a term holds a lone surrogate \(U\+D83D\), half of a character$/,
  },
] as const;

for (const { name, format, text, line, reason } of REFUSED) {
  Deno.test(`parseEntries refuses ${name}, naming line ${line}`, () => {
    assert.throws(() => parseEntries(text, format), (error) => {
      assert.ok(error instanceof EntriesTextError);
      assert.equal(error.line, line);
      assert.match(error.message, reason);
      assert.ok(error.message.startsWith(`line ${line}: `));
      return true;
    });
  });
}

Deno.test("parseEntries refuses 10,001 entries and accepts 10,000", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `term${i}\tZiel${i}`).join("\n");
  assert.equal(parseEntries(lines(10_000), "tsv").length, 10_000);
  assert.throws(() => parseEntries(lines(10_001), "tsv"), /line 10001: more than 10000 entries/);
});

Deno.test("formatTsv and formatCsv read back as the same entries", () => {
  const entries = [
    { source: "a, b", target: 'say "hi"' },
    { source: "tolk", target: "" },
    { source: "東京", target: "Tokyo" },
    // Quoted whole: the TSV reader takes such a field for a spreadsheet's quoting of it.
    { source: '"Save"', target: '"Speichern"' },
    { source: '""', target: 'say ""hi""' },
  ];
  assert.deepEqual(parseEntries(formatCsv(entries), "csv"), entries);
  assert.deepEqual(parseEntries(formatTsv(entries), "tsv"), entries);
  assert.equal(formatCsv([{ source: "x", target: "y" }]), "x,y\r\n");
});
