/**
 * Glossary entries as text: TSV (`source<TAB>target` per line) and CSV (RFC 4180), in and out,
 * with validation that names the line at fault.
 */
import { MAX_GLOSSARY_ENTRIES, MAX_TERM_CODE_POINTS } from "../../schemas/glossary.ts";
import { countCodePoints } from "../../schemas/translation.ts";
import { isHeadingRow } from "./entries_headings.ts";
import { termKey } from "./term_matcher.ts";

/** One glossary entry; an empty `target` means "do not translate". */
export interface GlossaryEntry {
  source: string;
  target: string;
}

/** Entries that cannot be accepted; `line` is 1-based (the line where the record starts). */
export class EntriesTextError extends Error {
  override name = "EntriesTextError";
  constructor(readonly line: number | null, reason: string) {
    super(line === null ? reason : `line ${line}: ${reason}`);
  }
}

/**
 * Parses and validates entries: terms are NFC and trimmed, without {@link INVISIBLE}
 * characters, empty lines are skipped, a source term
 * appears once (compared as matching compares terms: {@link termKey}). A byte order mark before
 * the first line is dropped (spreadsheets write one), and so is a first row of column headings
 * ({@link isHeadingRow}). CSV lines may add their source and target languages (DeepL's four
 * columns) when `isPair` says whether they are the dictionary's.
 *
 * @throws {EntriesTextError} naming the first line at fault.
 */
export function parseEntries(
  text: string,
  format: "tsv" | "csv",
  isPair?: (source: string, target: string) => boolean,
): GlossaryEntry[] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records = format === "tsv" ? tsvRecords(body) : csvRecords(body, csvSeparator(body));
  const entries: GlossaryEntry[] = [];
  const firstLine = new Map<string, number>();
  let firstRow = true;
  for (const { line, fields } of records) {
    if (fields.length === 1 && fields[0].trim() === "") continue;
    const headings = firstRow && fields.length === 2 && isHeadingRow(fields, isPair);
    firstRow = false;
    if (headings) continue;
    // DeepL's CSV may name each line's languages in two more fields; they must be the
    // dictionary's own (`isPair` reads them in any spelling).
    const languages = format === "csv" && fields.length === 4 && isPair !== undefined;
    if (fields.length !== 2 && !languages) {
      const expected = format === "csv" && isPair
        ? "2 fields (source and target) or 4 (and their languages)"
        : "2 fields (source and target)";
      throw new EntriesTextError(line, `expected ${expected}, found ${fields.length}`);
    }
    if (languages && !isPair!(fields[2].trim(), fields[3].trim())) {
      throw new EntriesTextError(
        line,
        `the languages "${fields[2].trim()}" and "${fields[3].trim()}" are not the dictionary's`,
      );
    }
    const [source, target] = fields.slice(0, 2).map((field) =>
      field.normalize("NFC").replace(INVISIBLE, "").trim()
    );
    if (source === "") throw new EntriesTextError(line, "the source term is empty");
    for (const term of [source, target]) {
      const forbidden = forbiddenCharacter(term);
      if (forbidden) throw new EntriesTextError(line, `a term holds ${forbidden}`);
      if (countCodePoints(term) > MAX_TERM_CODE_POINTS) {
        throw new EntriesTextError(line, `a term is over ${MAX_TERM_CODE_POINTS} characters`);
      }
    }
    const key = termKey(source);
    const seen = firstLine.get(key);
    if (seen !== undefined) {
      throw new EntriesTextError(line, `source term "${source}" already appears on line ${seen}`);
    }
    firstLine.set(key, line);
    entries.push({ source, target });
    if (entries.length > MAX_GLOSSARY_ENTRIES) {
      throw new EntriesTextError(line, `more than ${MAX_GLOSSARY_ENTRIES} entries`);
    }
  }
  return entries;
}

/**
 * Invisible characters left out of terms: the zero-width space, the word joiner and the zero-width
 * no-break space (a byte order mark), which a term copied from a web page or a document brings
 * along. Kept in a term, it matched no text that looks the same, and its target was never found
 * in a translation. The zero-width joiner and non-joiner stay: they make emoji sequences (👩‍💻)
 * and shape Khmer, Myanmar and Lao text, so they are part of how a term is written.
 */
const INVISIBLE = /[\u200B\u2060\uFEFF]/g;

/**
 * What a term holds that no term may, in words: a control character (a tab or a line break
 * would break the TSV the entries are given back as) or a lone surrogate (half of a character,
 * which UTF-8, and so the database and every answer, cannot carry). Undefined when it holds
 * neither.
 */
function forbiddenCharacter(term: string): string | undefined {
  const found = /[\p{Cc}\p{Cs}]/u.exec(term)?.[0];
  if (found === undefined) return undefined;
  if (found === "\t") return "a tab";
  if (found === "\n" || found === "\r") return "a line break";
  const code = `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  return /\p{Cs}/u.test(found)
    ? `a lone surrogate (${code}), half of a character`
    : `the control character ${code}`;
}

/**
 * Entries as TSV, one per line, each line ending in `\n`. A term the reader would take for a
 * spreadsheet's quoting ({@link QUOTED_WHOLE}: `"Save"`) is written quoted so, and reads back
 * with its quotes: written as is, a glossary's own entries lost them on their way back in.
 * `quoting: false` writes every term as it is (DeepL's TSV, which has no quoting).
 */
export function formatTsv(
  entries: readonly GlossaryEntry[],
  options: { quoting?: boolean } = {},
): string {
  const quoting = options.quoting ?? true;
  const field = (term: string) =>
    quoting && QUOTED_WHOLE.test(term) ? `"${term.replaceAll('"', '""')}"` : term;
  return entries.map((entry) => `${field(entry.source)}\t${field(entry.target)}\n`).join("");
}

/** Entries as CSV (RFC 4180: CRLF line ends, fields quoted when they need it). */
export function formatCsv(entries: readonly GlossaryEntry[]): string {
  const field = (value: string) =>
    /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
  return entries.map((entry) => `${field(entry.source)},${field(entry.target)}\r\n`).join("");
}

/** A TSV field quoted whole, every quote inside doubled ({@link tsvRecords}). */
const QUOTED_WHOLE = /^"(?:[^"]|"")*"$/;

interface TextRecord {
  line: number;
  fields: string[];
}

/**
 * TSV lines, ended as CSV's are: CRLF, LF or a CR alone. A field quoted whole, every quote inside
 * doubled, is read without its quotes: Excel's "Unicode text" and LibreOffice write a cell holding
 * a quote (or a comma) so, and `"say ""hi"""` was stored as the term. Any other field is read as
 * written (`5" disk`, `"Save" button`).
 */
function tsvRecords(text: string): TextRecord[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const unquoted = (field: string) =>
    QUOTED_WHOLE.test(field) ? field.slice(1, -1).replaceAll('""', '"') : field;
  return lines.map((line, index) => ({ line: index + 1, fields: line.split("\t").map(unquoted) }));
}

/**
 * The separator of a CSV: a semicolon when the first line has one outside quotes and no comma
 * there, as Excel saves CSV where the comma is the decimal sign (German, French, Spanish
 * settings); else the comma of RFC 4180. Read whole with commas, such a file was "expected 2
 * fields, found 1" on its first line.
 */
function csvSeparator(text: string): "," | ";" {
  let quoted = false;
  let semicolon = false;
  let content = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (!quoted && (char === "\n" || char === "\r")) {
      // The first line with something on it decides; blank lines before it say nothing.
      if (content) break;
      continue;
    }
    content = true;
    if (quoted || char === '"') continue;
    if (char === ",") return ",";
    if (char === ";") semicolon = true;
  }
  return semicolon ? ";" : ",";
}

/**
 * RFC 4180 records: quoted fields may hold the separator, quotes (doubled) and line breaks.
 */
function csvRecords(text: string, separator: "," | ";"): TextRecord[] {
  const records: TextRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quotedField = false;
  const endField = () => {
    fields.push(field);
    field = "";
    quotedField = false;
  };
  const endRecord = () => {
    endField();
    records.push({ line: recordLine, fields });
    fields = [];
    recordLine = line;
  };
  while (i < text.length) {
    const char = text[i];
    if (char === '"' && field === "" && !quotedField) {
      const start = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new EntriesTextError(start, "a quoted field is not closed");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (text[i] === "\n") line++;
        field += text[i++];
      }
      quotedField = true;
      const next = text[i];
      if (next !== undefined && next !== separator && next !== "\r" && next !== "\n") {
        throw new EntriesTextError(
          start,
          'text after a closing quote (write a quote inside a quoted field as "")',
        );
      }
      continue;
    }
    if (char === '"') {
      throw new EntriesTextError(
        line,
        "a quote inside an unquoted field (quote the field and double the quote)",
      );
    }
    if (char === separator) {
      endField();
      i++;
      continue;
    }
    if (char === "\r" && text[i + 1] === "\n") i++;
    if (char === "\n" || char === "\r") {
      i++;
      line++;
      endRecord();
      continue;
    }
    field += char;
    i++;
  }
  if (field !== "" || fields.length > 0 || quotedField) endRecord();
  return records;
}
