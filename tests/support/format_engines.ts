/**
 * Engine functions for format tests: they stand for an engine's answers at the segment level
 * (the real engines are exercised through the service in the corpus tests).
 */
import type { TranslationItem } from "../../engines/engine.ts";
import type { CutItem, CutOptions, Format } from "../../translation/formats/format.ts";
import { translateSegments } from "../../translation/segment_translation.ts";

/** Upper-cases text outside placeholder tokens: a visible "translation" that keeps them. */
export function upperCase(text: string): string {
  return text.split(/(<\/?x\d+\/?>)/).map((part, index) =>
    index % 2 === 1 ? part : part.toUpperCase()
  ).join("");
}

/** Drops every placeholder token: what a model that cannot keep them does. */
export function dropPlaceholders(text: string): string {
  return upperCase(text.replace(/<\/?x\d+\/?>/g, ""));
}

/** Cuts `text` and translates its segments with `engine`, recording what was sent. */
export async function translateItem(
  format: Format,
  text: string,
  engine: (text: string) => string,
  options: Partial<CutOptions> = {},
): Promise<{ text: string; sent: string[]; fallbacks: number; cut: CutItem }> {
  const cut = format.cut(text, { mode: "paragraph", preserveFormatting: false, ...options });
  const sent: string[] = [];
  const outcome = await translateSegments(
    [{ cut, source: "en" }],
    (items: TranslationItem[]) => {
      sent.push(...items.map((item) => item.text));
      return Promise.resolve(
        items.map((item) => ({ text: engine(item.text), confidence: null, alternatives: [] })),
      );
    },
    { once: options.mode === "webpage" },
  );
  return { text: outcome.items[0].text, sent, fallbacks: outcome.fallbacks, cut };
}
