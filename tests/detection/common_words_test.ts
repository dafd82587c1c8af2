import assert from "node:assert/strict";
import { commonWordsLanguage } from "../../detection/common_words.ts";

Deno.test("commonWordsLanguage decides a short text only when all its words are one language's", () => {
  const cases: [string, string | undefined][] = [
    ["Hello world!", "en"],
    ["GUTEN MORGEN", "de"],
    ["Configuración", "es"],
    // A word of two lists decides nothing by itself; with another word it may.
    ["No", undefined],
    ["No, gracias", "es"],
    ["Terima kasih", "id"],
    ["Terima kasih, tetapan", "ms"],
    // Words of two languages, an unknown word, or more than three words: the models decide.
    ["Hello Welt", undefined],
    ["Hello Kitty", undefined],
    ["hello hello hello hello", undefined],
    ["", undefined],
  ];
  for (const [text, language] of cases) {
    assert.equal(commonWordsLanguage(text)?.language, language, text);
  }
  assert.equal(commonWordsLanguage("Terima kasih")?.shared, true, "as much Malay");
  assert.equal(commonWordsLanguage("Makasih")?.shared, false);
});
