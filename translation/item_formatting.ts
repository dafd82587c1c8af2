/**
 * What of an item goes to an engine, and how the engine's answer is put back in its place.
 *
 * Outer white space never goes to an engine (models drop or mangle it) and is restored around
 * the translation. With `preserve_formatting`, each non-blank line is its own piece, so line
 * breaks and indentation survive whatever the engine does with newlines.
 */

/** An item cut into the pieces an engine translates. */
export interface ItemPieces {
  /** Texts to translate, in order. */
  pieces: string[];
  /** Rebuilds the item from the translated pieces (same length and order as `pieces`). */
  assemble(translated: readonly string[]): string;
}

const OUTER_SPACE = /^(\s*)([\s\S]*?)(\s*)$/;

/** Cuts `text` into engine pieces; `preserveLines` keeps every line break in place. */
export function cutItem(text: string, preserveLines: boolean): ItemPieces {
  if (!preserveLines) return cutOuterSpace(text);
  const lines = text.split(/(\r?\n)/); // odd indices hold the separators
  const parts = lines.map((line, index) => index % 2 === 1 ? undefined : cutOuterSpace(line));
  const pieces = parts.flatMap((part) => part?.pieces ?? []);
  return {
    pieces,
    assemble(translated) {
      let next = 0;
      return lines.map((line, index) => {
        const part = parts[index];
        if (!part) return line;
        const own = translated.slice(next, next + part.pieces.length);
        next += part.pieces.length;
        return part.assemble(own);
      }).join("");
    },
  };
}

function cutOuterSpace(text: string): ItemPieces {
  const [, lead, core, trail] = text.match(OUTER_SPACE)!;
  if (core === "") return { pieces: [], assemble: () => text };
  return { pieces: [core], assemble: (translated) => lead + translated[0] + trail };
}
