import assert from "node:assert/strict";
import {
  fromDeepLDictionary,
  fromDeepLGlossaryRequest,
  glossaryPairFor,
  mergeEntries,
  toDeepLGlossary,
  toDeepLTsv,
} from "../../compat/deepl_glossaries.ts";
import { TranslationServiceError } from "../../errors/translation_errors.ts";
import { DeepLGlossarySchema } from "../../schemas/compat/deepl.ts";

const CREATE = { name: true, dictionaries: true };

/** Named cases: DeepL glossary bodies in, tolk glossary input out. */
const CASES = [
  {
    name: "a form body with indexed dictionary fields, in index order",
    body: {
      name: "Terms",
      "dictionaries[1].source_lang": "EN",
      "dictionaries[1].target_lang": "ZH-HANT",
      "dictionaries[1].entries": "a,b",
      "dictionaries[1].entries_format": "csv",
      "dictionaries[0].source_lang": "en",
      "dictionaries[0].target_lang": "de",
      "dictionaries[0].entries": "a\tb",
    },
    expected: {
      name: "Terms",
      dictionaries: [
        { source_lang: "en", target_lang: "de", entries: "a\tb", entries_format: "tsv" },
        { source_lang: "en", target_lang: "zh-Hant", entries: "a,b", entries_format: "csv" },
      ],
    },
  },
  {
    name: "a JSON body with a dictionaries array",
    body: {
      name: "J",
      dictionaries: [{ source_lang: "tl", target_lang: "in", entries: "x\ty" }],
    },
    expected: {
      name: "J",
      dictionaries: [{
        source_lang: "fil",
        target_lang: "id",
        entries: "x\ty",
        entries_format: "tsv",
      }],
    },
  },
] as const;

for (const testCase of CASES) {
  Deno.test(`fromDeepLGlossaryRequest: ${testCase.name}`, () => {
    assert.deepEqual(fromDeepLGlossaryRequest(testCase.body, CREATE), testCase.expected);
  });
}

/** Named refusals. */
const REFUSALS: { name: string; body: Record<string, unknown>; param: string }[] = [
  { name: "no name on create", body: { dictionaries: [] }, param: "name" },
  { name: "no dictionary on create", body: { name: "x" }, param: "dictionaries" },
  {
    name: "an unknown language",
    body: { name: "x", dictionaries: [{ source_lang: "en", target_lang: "pt", entries: "" }] },
    param: "dictionaries[0].target_lang",
  },
  {
    name: "an unknown entries format",
    body: {
      name: "x",
      dictionaries: [{ source_lang: "en", target_lang: "de", entries: "", entries_format: "xlsx" }],
    },
    param: "dictionaries[0].entries_format",
  },
];

for (const refusal of REFUSALS) {
  Deno.test(`fromDeepLGlossaryRequest refuses ${refusal.name}`, () => {
    assert.throws(() => fromDeepLGlossaryRequest(refusal.body, CREATE), (thrown) => {
      assert.ok(thrown instanceof TranslationServiceError);
      assert.equal(thrown.param, refusal.param);
      return true;
    });
  });
}

Deno.test("fromDeepLGlossaryRequest for PATCH needs neither name nor dictionaries", () => {
  assert.deepEqual(fromDeepLGlossaryRequest({ name: "" }, { name: false, dictionaries: false }), {
    dictionaries: [],
  });
});

Deno.test("fromDeepLDictionary reads PUT's one dictionary", () => {
  assert.deepEqual(
    fromDeepLDictionary({ source_lang: "DE", target_lang: "EN-GB", entries: "a\tb" }),
    {
      source_lang: "de",
      target_lang: "en",
      entries: "a\tb",
      entries_format: "tsv",
    },
  );
});

Deno.test("mergeEntries replaces a term in place, case-insensitively, and appends new ones", () => {
  assert.deepEqual(
    mergeEntries(
      [{ source: "Tolk", target: "a" }, { source: "x", target: "y" }],
      [{ source: "new", target: "n" }, { source: "TOLK", target: "b" }],
      "p",
    ),
    [{ source: "TOLK", target: "b" }, { source: "x", target: "y" }, { source: "new", target: "n" }],
  );
});

Deno.test("mergeEntries refuses a merge over 10000 entries", () => {
  const many = Array.from({ length: 10000 }, (_, i) => ({ source: `t${i}`, target: "" }));
  assert.equal(mergeEntries(many, [{ source: "t1", target: "x" }], "p").length, 10000);
  assert.throws(
    () => mergeEntries(many, [{ source: "extra", target: "" }], "p"),
    TranslationServiceError,
  );
});

Deno.test("toDeepLGlossary writes languages in DeepL's lower case, Traditional Chinese apart", () => {
  const body = DeepLGlossarySchema.parse(toDeepLGlossary({
    id: "g",
    name: "n",
    created: 0,
    dictionaries: [
      { sourceLang: "zh-Hans", targetLang: "zh-Hant", entryCount: 1 },
      { sourceLang: "fil", targetLang: "en", entryCount: 2 },
    ],
  }));
  assert.deepEqual(body, {
    glossary_id: "g",
    name: "n",
    dictionaries: [
      { source_lang: "zh", target_lang: "zh-hant", entry_count: 1 },
      { source_lang: "tl", target_lang: "en", entry_count: 2 },
    ],
    creation_time: "1970-01-01T00:00:00.000Z",
  });
});

/** A glossary record with dictionaries of these `source>target` pairs. */
function glossaryOf(...pairs: string[]) {
  const dictionaries = pairs.map((pair) => {
    const [sourceLang, targetLang] = pair.split(">");
    return { sourceLang, targetLang, entryCount: 1 };
  });
  return { id: "g", name: "n", created: 0, dictionaries };
}

/** Named cases: the dictionary that serves a DeepL translation's pair (DeepL's one `zh`). */
const PAIR_CASES = [
  { name: "its own pair", has: ["en>de"], asked: "en>de", served: "en>de" },
  {
    name: "a Simplified one for ZH-HANT",
    has: ["en>zh-Hans"],
    asked: "en>zh-Hant",
    served: "en>zh-Hans",
  },
  {
    name: "a Traditional one for ZH-HANS",
    has: ["en>zh-Hant"],
    asked: "en>zh-Hans",
    served: "en>zh-Hant",
  },
  {
    name: "its own script before the other",
    has: ["en>zh-Hans", "en>zh-Hant"],
    asked: "en>zh-Hant",
    served: "en>zh-Hant",
  },
  {
    name: "a Traditional source for ZH",
    has: ["zh-Hant>en"],
    asked: "zh-Hans>en",
    served: "zh-Hant>en",
  },
  { name: "an unknown glossary: the asked pair", has: null, asked: "en>de", served: "en>de" },
];

for (const testCase of PAIR_CASES) {
  Deno.test(`glossaryPairFor serves ${testCase.name}`, () => {
    const [source, target] = testCase.asked.split(">");
    const record = testCase.has ? glossaryOf(...testCase.has) : null;
    const pair = glossaryPairFor(record, source, target);
    assert.equal(`${pair.source}>${pair.target}`, testCase.served);
  });
}

Deno.test("glossaryPairFor refuses another language, naming the pairs the glossary has", () => {
  assert.throws(
    () => glossaryPairFor(glossaryOf("en>zh-Hans"), "en", "ja"),
    (error: Error) =>
      error instanceof TranslationServiceError && /en→ja.*en→zh\)/.test(error.message),
  );
});

Deno.test("toDeepLTsv writes a term quoted whole as it is: DeepL's TSV has no quoting", () => {
  assert.equal(
    toDeepLTsv([{ source: '"Save"', target: '"Speichern"' }, { source: "tolk", target: "" }]),
    '"Save"\t"Speichern"\ntolk\ttolk\n',
  );
});
