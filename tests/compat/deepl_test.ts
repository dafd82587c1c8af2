import assert from "node:assert/strict";
import { fromDeepLRequest, toDeepLError } from "../../compat/deepl.ts";
import { DEFAULT_COMPAT_POLICY } from "../../compat/compat_request.ts";
import { TranslationServiceError } from "../../errors/translation_errors.ts";
import type { TranslateRequest } from "../../schemas/translation.ts";

const policy = DEFAULT_COMPAT_POLICY;

/** Named cases: DeepL fields in, the TranslateRequest tolk runs. */
const REQUEST_CASES: { name: string; body: Record<string, unknown>; expected: TranslateRequest }[] =
  [
    {
      name: "a form body with one text and no source detects it and keeps its lines",
      body: { text: "Hello", target_lang: "DE" },
      expected: {
        source: "auto",
        target: "de",
        texts: ["Hello"],
        options: { preserve_formatting: true },
      },
    },
    {
      name: "repeated text, any spelling of the languages",
      body: { text: ["Hello", "World & more"], target_lang: "zh-HANS", source_lang: "en" },
      expected: {
        source: "en",
        target: "zh-Hans",
        texts: ["Hello", "World & more"],
        options: { preserve_formatting: true },
      },
    },
    {
      name: "formality less becomes an informal tone",
      body: { text: ["Hi"], target_lang: "DE", formality: "less" },
      expected: {
        source: "auto",
        target: "de",
        texts: ["Hi"],
        options: { tone: "informal", preserve_formatting: true },
      },
    },
    {
      name: "formality prefer_more becomes a formal tone",
      body: { text: ["Hi"], target_lang: "FR", formality: "PREFER_MORE" },
      expected: {
        source: "auto",
        target: "fr",
        texts: ["Hi"],
        options: { tone: "formal", preserve_formatting: true },
      },
    },
    {
      name: "tag_handling html is format html and leaves lines to the format",
      body: { text: ["<p>Hi</p>"], target_lang: "ES", tag_handling: "html" },
      expected: { source: "auto", target: "es", texts: ["<p>Hi</p>"], format: "html", options: {} },
    },
    {
      name: "tag_handling xml is format xml",
      body: { text: ["<x>Hi</x>"], target_lang: "ES", tag_handling: "xml" },
      expected: { source: "auto", target: "es", texts: ["<x>Hi</x>"], format: "xml", options: {} },
    },
    {
      name: "tag options as deepl-node sends them (comma lists, 0/1) reach format xml",
      body: {
        text: ["<x>Hi</x>"],
        target_lang: "ES",
        tag_handling: "xml",
        ignore_tags: "x, ph",
        splitting_tags: "br",
        non_splitting_tags: ["g", "bpt"],
        outline_detection: "0",
      },
      expected: {
        source: "auto",
        target: "es",
        texts: ["<x>Hi</x>"],
        format: "xml",
        options: {
          ignore_tags: ["x", "ph"],
          splitting_tags: ["br"],
          non_splitting_tags: ["g", "bpt"],
          outline_detection: false,
        },
      },
    },
    {
      name: "format html reads ignore_tags only; without tag_handling none is read, as DeepL",
      body: {
        text: ["<p>Hi</p>"],
        target_lang: "ES",
        tag_handling: "html",
        ignore_tags: "code",
        splitting_tags: "br",
        outline_detection: false,
      },
      expected: {
        source: "auto",
        target: "es",
        texts: ["<p>Hi</p>"],
        format: "html",
        options: { ignore_tags: ["code"] },
      },
    },
    {
      name: "tag options without tag_handling are left alone",
      body: { text: ["Hi"], target_lang: "ES", ignore_tags: "x", outline_detection: "1" },
      expected: {
        source: "auto",
        target: "es",
        texts: ["Hi"],
        options: { preserve_formatting: true },
      },
    },
    {
      name: "split_sentences 0 sends the text whole",
      body: { text: ["a\nb"], target_lang: "JA", split_sentences: "0" },
      expected: {
        source: "auto",
        target: "ja",
        texts: ["a\nb"],
        options: { preserve_formatting: false },
      },
    },
    {
      // DeepL's preserve_formatting only stops it correcting punctuation and case; whether lines
      // are units is split_sentences' alone (nonewlines: "ignoring newlines").
      name: "nonewlines with preserve_formatting=1 sends the text whole",
      body: {
        text: ["a\nb"],
        target_lang: "JA",
        split_sentences: "nonewlines",
        preserve_formatting: "1",
      },
      expected: {
        source: "auto",
        target: "ja",
        texts: ["a\nb"],
        options: { preserve_formatting: false },
      },
    },
    {
      // DeepL: 0 is "no splitting at all, whole input is treated as one sentence".
      name: "split_sentences 0 with preserve_formatting=1 sends the text whole",
      body: { text: ["a\nb"], target_lang: "JA", split_sentences: "0", preserve_formatting: true },
      expected: {
        source: "auto",
        target: "ja",
        texts: ["a\nb"],
        options: { preserve_formatting: false },
      },
    },
    {
      name: "split_sentences and the flags as JSON numbers are read as their strings",
      body: { text: ["a\nb"], target_lang: "JA", split_sentences: 0, preserve_formatting: 1 },
      expected: {
        source: "auto",
        target: "ja",
        texts: ["a\nb"],
        options: { preserve_formatting: false },
      },
    },
    {
      name: "split_sentences 1 as a JSON number keeps the lines",
      body: { text: ["a\nb"], target_lang: "JA", split_sentences: 1 },
      expected: {
        source: "auto",
        target: "ja",
        texts: ["a\nb"],
        options: { preserve_formatting: true },
      },
    },
    {
      name: "a glossary with a source passes its id",
      body: { text: ["Hi"], target_lang: "DE", source_lang: "EN", glossary_id: "g1" },
      expected: {
        source: "en",
        target: "de",
        texts: ["Hi"],
        options: { glossary_id: "g1", preserve_formatting: true },
      },
    },
    {
      name: "parameters tolk has no use for are ignored",
      body: { text: "Hi", target_lang: "KO", show_billed_characters: "1", model_type: "latency" },
      expected: {
        source: "auto",
        target: "ko",
        texts: ["Hi"],
        options: { preserve_formatting: true },
      },
    },
  ];

for (const testCase of REQUEST_CASES) {
  Deno.test(`fromDeepLRequest: ${testCase.name}`, () => {
    assert.deepEqual(fromDeepLRequest(testCase.body, policy).request, testCase.expected);
  });
}

Deno.test("fromDeepLRequest: the settings make compat requests sensitive and use memory", () => {
  const { request } = fromDeepLRequest({ text: "Hi", target_lang: "DE" }, {
    sensitive: true,
    memory: true,
  });
  assert.equal(request.options?.sensitive, true);
  assert.equal(request.options?.memory, true);
});

/** Named error cases: the field named and the status DeepL clients get. */
const ERROR_CASES: {
  name: string;
  body: unknown;
  status: number;
  param: string;
  /** The message, where it names what was wrong. */
  message?: string;
}[] = [
  {
    name: "no text",
    body: { target_lang: "DE" },
    status: 400,
    param: "text",
    message: "text is required",
  },
  {
    name: "a text that is a number",
    body: { text: 7, target_lang: "DE" },
    status: 400,
    param: "text",
    message: "text: expected string or array, received number",
  },
  { name: "an empty text list", body: { text: [], target_lang: "DE" }, status: 400, param: "text" },
  { name: "no target", body: { text: "Hi" }, status: 400, param: "target_lang" },
  {
    name: "an unknown target",
    body: { text: "Hi", target_lang: "PT-BR" },
    status: 400,
    param: "target_lang",
  },
  {
    name: "an unknown tag_handling_version",
    body: { text: "Hi", target_lang: "DE", tag_handling: "xml", tag_handling_version: "v3" },
    status: 400,
    param: "tag_handling_version",
  },
  {
    name: "XML that is not well-formed under tag handling v2",
    body: {
      text: ["<p>fine</p>", "<p>This tag is not closed properly</a>"],
      target_lang: "DE",
      tag_handling: "xml",
      tag_handling_version: "v2",
    },
    status: 400,
    param: "text",
  },
  {
    name: "']]>' in the text under tag handling v2",
    body: { text: ["a ]]> b"], target_lang: "DE", tag_handling: "xml", tag_handling_version: "v2" },
    status: 400,
    param: "text",
    message: "Tag handling parsing failed, please check input: text 0: ']]>' at line 1, " +
      "column 3 is only allowed as the end of a CDATA section.",
  },
  {
    name: "an unknown source",
    body: { text: "Hi", target_lang: "DE", source_lang: "XX" },
    status: 400,
    param: "source_lang",
    // Source codes (no variants such as EN-GB), not the target list.
    message: 'source_lang "XX" is not supported; supported: EN, ZH, VI, TH, ID, MS, TL, MY, KM, ' +
      "LO, JA, KO, FR, DE, ES",
  },
  {
    name: "a glossary without source",
    body: { text: "Hi", target_lang: "DE", glossary_id: "g" },
    status: 400,
    param: "source_lang",
  },
  {
    // deepl-node's styleRule and translationMemory: DeepL's resources, which tolk has none of;
    // translating without them would drop the user's rules unsaid.
    name: "a DeepL style rule",
    body: { text: "Hi", target_lang: "DE", style_id: "sr-1" },
    status: 400,
    param: "style_id",
    message: 'style_id "sr-1" names no style rule: tolk has no DeepL style rules (send the ' +
      "rule's instructions as custom_instructions).",
  },
  {
    name: "a DeepL translation memory",
    body: { text: "Hi", target_lang: "DE", translation_memory_id: "tm-1" },
    status: 400,
    param: "translation_memory_id",
  },
  {
    name: "a bad formality",
    body: { text: "Hi", target_lang: "DE", formality: "rude" },
    status: 400,
    param: "formality",
  },
  {
    name: "a bad tag_handling",
    body: { text: "Hi", target_lang: "DE", tag_handling: "markdown" },
    status: 400,
    param: "tag_handling",
  },
  {
    name: "a tag name that is no element name",
    body: { text: "Hi", target_lang: "DE", tag_handling: "xml", ignore_tags: "x,1st" },
    status: 400,
    param: "ignore_tags[1]",
  },
  {
    name: "a bad split_sentences",
    body: { text: "Hi", target_lang: "DE", split_sentences: "2" },
    status: 400,
    param: "split_sentences",
  },
  {
    name: "a split_sentences number other than 0 and 1",
    body: { text: "Hi", target_lang: "DE", split_sentences: 2 },
    status: 400,
    param: "split_sentences",
  },
  {
    name: "129 texts",
    body: { text: Array(129).fill("a"), target_lang: "DE" },
    status: 413,
    param: "text",
    message: "text holds more than 128 items",
  },
  {
    name: "50001 code points",
    body: { text: [...Array(7).fill("a".repeat(7000)), "😀".repeat(1001)], target_lang: "DE" },
    status: 413,
    param: "text",
  },
];

for (const testCase of ERROR_CASES) {
  Deno.test(`fromDeepLRequest refuses ${testCase.name} with DeepL's ${testCase.status}`, () => {
    assert.throws(() => fromDeepLRequest(testCase.body, policy), (thrown) => {
      assert.ok(thrown instanceof TranslationServiceError);
      assert.equal(thrown.param, testCase.param);
      const { status, body } = toDeepLError(thrown);
      assert.equal(status, testCase.status);
      assert.deepEqual(Object.keys(body), ["message"]);
      if (testCase.message) assert.equal(body.message, testCase.message);
      return true;
    });
  });
}

Deno.test("fromDeepLRequest accepts exactly 128 texts of 50000 code points in all", () => {
  const texts = [...Array(127).fill("a".repeat(390)), "b".repeat(50000 - 127 * 390)];
  assert.equal(
    fromDeepLRequest({ text: texts, target_lang: "DE" }, policy).request.texts.length,
    128,
  );
});
