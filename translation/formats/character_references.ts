/**
 * Character references in text (`caf&eacute;`, `&#8217;`): the engine reads the characters they
 * stand for, not the markup. A reference written in the middle of a word as a placeholder
 * split the word for the engine (`Caf<x1/>`), and a text written all in references
 * (`&#12371;&#12435;…`) had no letter left to detect or translate.
 *
 * A format says how it decodes one reference (HTML's named ones, XML's five, CommonMark's);
 * what decodes to white space, a control character or `<`/`>`, or what the format keeps whole
 * (XML: an entity its DTD defines), stays an atom: outer white space is cut off and put back by
 * length, and the engine must never see a placeholder token the source wrote as `&lt;x1/&gt;`.
 * A format whose escape writes `<` back safely (HTML's text and attributes) reads `<`/`>` as
 * text where no placeholder could be forged, and a no-break space between two visible
 * characters (`10&nbsp;km`): as atoms they split the sentence (`a <x1/>div<x2/> tag`).
 * A segment the engine gives back as it read it is put back as written (placeholders.ts), so
 * an untranslated segment keeps its references byte for byte.
 *
 * Pure: no I/O.
 */
import type { SpanFinder } from "./placeholders.ts";

/**
 * Decodes one reference: its characters, the reference itself when it is none (read as
 * written), or undefined when it is to be kept whole as an atom. `next` is the character after
 * it (HTML reads `&copy=` in an attribute value as written).
 */
export type DecodeReference = (reference: string, next: string | undefined) => string | undefined;

/**
 * What may be a reference, its name read with `name` (HTML's named ones may lack the `;`; each
 * format decides).
 */
function referencePattern(name: RegExp): RegExp {
  // `u` only where the name needs it: with `i`, it would also read `ſ` as an ASCII `s`.
  return new RegExp(`&(?:#\\d+|#x[\\da-f]+|${name.source});?`, name.unicode ? "giu" : "gi");
}

/** Names of HTML's (and CommonMark's) named references: ASCII letters and digits. */
const ASCII_NAME = /[a-z][a-z\d]*/;
/** Characters a reference stands for that are not read as text (controls too: `&#1;`). */
const NOT_READ = /[\s<>\p{Cc}]/u;

/**
 * Characters read as text only where {@link readsInPlace} says so (`characters`): `<`, `>` and
 * the no-break space.
 */
const READ_IN_PLACE = /^[<>\u00a0]$/;
/** What could make a placeholder token with a `<` or `>` read as text (`&lt;x1/&gt;`). */
const TOKEN_NUMBER = /[xX]\s*\d/;

/**
 * Whether a `<` or `>` written escaped in `text` (`&lt;`, Markdown's `\<`) would spell a
 * placeholder token read as text: there it stays an atom.
 */
export function mayForgeToken(text: string): boolean {
  return TOKEN_NUMBER.test(text);
}

function readsAsText(read: string | undefined, characters: boolean): read is string {
  if (read === undefined) return false;
  return !NOT_READ.test(read) || (characters && READ_IN_PLACE.test(read));
}

/**
 * Whether a `<`, `>` or no-break space the reference at [start, end) of `text` reads as is text
 * there: an angle where the text could not spell a placeholder token with it, a no-break space
 * between two visible characters written as themselves (at an edge or by other space, it is cut
 * off with the outer white space, by length).
 */
function readsInPlace(read: string, text: string, start: number, end: number): boolean {
  if (read !== "\u00a0") return !mayForgeToken(text);
  return start > 0 && end < text.length && /[^\s;]/.test(text[start - 1]) &&
    /[^\s&]/.test(text[end]);
}

/** Finds the references of a text that are kept whole: those not read as text. */
function referenceAtoms(
  decode: DecodeReference,
  reference: RegExp,
  characters: boolean,
): SpanFinder {
  return (text) => {
    const spans: [number, number][] = [];
    if (!text.includes("&")) return spans;
    reference.lastIndex = 0;
    for (let match = reference.exec(text); match !== null; match = reference.exec(text)) {
      const read = decode(match[0], text[reference.lastIndex]);
      const asText = readsAsText(read, characters) &&
        (!READ_IN_PLACE.test(read) || readsInPlace(read, text, match.index, reference.lastIndex));
      if (!asText) spans.push([match.index, reference.lastIndex]);
    }
    return spans;
  };
}

/**
 * Text as the engine reads it: each reference that stands for text decoded (a text whose
 * references {@link referenceAtoms} kept whole holds none of those any more).
 */
function decodeReferences(
  written: string,
  decode: DecodeReference,
  pattern: RegExp,
  characters: boolean,
): string {
  if (!written.includes("&")) return written;
  return written.replace(pattern, (reference, at: number) => {
    const read = decode(reference, written[at + reference.length]);
    return readsAsText(read, characters) ? read : reference;
  });
}

/** How one place (text, an attribute value in its quoting) reads text and writes it back. */
export interface TextReading {
  /** The references kept whole as atoms. */
  atoms: SpanFinder;
  /** Text as the engine reads it. */
  decode: (written: string) => string;
  /**
   * A translation written back for the place; `after` is the markup that follows it inside the
   * segment (undefined at its end).
   */
  escape: (text: string, before?: string, after?: string) => string;
  /** Whether one reference stands for white space (kept outside a segment at its edges). */
  isSpace: (reference: string) => boolean;
}

/**
 * A place's reading, its functions made once (not per text run). `name` is how the format's
 * named references are spelt: XML's are any Name (`&product-name;`, `&Straße;`), and one read
 * as ASCII only was cut at its `-` and handed to the engine as text. `characters`: `<`, `>` and
 * the no-break space are read as text where they may be (the escape writes `<` back escaped).
 */
export function textReading(
  decode: DecodeReference,
  escape: TextReading["escape"],
  { name = ASCII_NAME, characters = false }: { name?: RegExp; characters?: boolean } = {},
): TextReading {
  const reference = referencePattern(name);
  return {
    atoms: referenceAtoms(decode, reference, characters),
    decode: (written) => decodeReferences(written, decode, reference, characters),
    escape,
    isSpace: (written) => {
      const read = decode(written, undefined);
      return read !== undefined && read !== written && read.trim() === "" && read !== "";
    },
  };
}
