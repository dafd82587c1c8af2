import assert from "node:assert/strict";
import { fromTmx, TmxError, toLanguageCode, toTmx } from "../../../translation/memory/tmx.ts";

const ENTRIES = [
  {
    sourceLang: "en",
    targetLang: "de",
    source: 'Tom & "Jerry" <3',
    target: "Tom & „Jerry“ <3",
    origin: "user",
    created: 1_790_000_000,
  },
  {
    sourceLang: "ja",
    targetLang: "en",
    source: "東京\nへ行く",
    target: "Go to\r\nTokyo",
    origin: "engine",
    created: 1_790_000_100,
    steering: "x".repeat(43),
  },
  {
    sourceLang: "th",
    targetLang: "zh-Hant",
    source: "  สวัสดี  ",
    target: "你好",
    origin: "user",
    created: 1_790_000_200,
  },
] as const;

Deno.test("toTmx then fromTmx gives back the same entries (round trip)", () => {
  const xml = toTmx(ENTRIES, "0.1.0 (test)");
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<tmx version="1.4">/);
  const read = fromTmx(xml);
  assert.equal(read.skipped, 0);
  assert.deepEqual(read.entries, ENTRIES);
});

Deno.test("fromTmx reads a TMX from another tool: srclang, region tags, inline codes, several targets", () => {
  const xml = `<?xml version="1.0"?>
<tmx version="1.4"><header srclang="en-US" creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="OmegaT" adminlang="EN-US" datatype="plaintext"/>
<body>
<tu><tuv xml:lang="en-US"><seg>Click <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> &amp; wait</seg></tuv>
<tuv xml:lang="de-DE"><seg>Klicken Sie auf <bpt i="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept> &amp; warten</seg></tuv>
<tuv xml:lang="zh-CN"><seg>点击保存并等待</seg></tuv>
<tuv xml:lang="pt-BR"><seg>Clique em salvar</seg></tuv></tu>
<tu><tuv xml:lang="en-US"><seg>Alone</seg></tuv></tu>
</body></tmx>`;
  const read = fromTmx(xml);
  assert.deepEqual(
    read.entries.map((e) => [e.sourceLang, e.targetLang, e.source, e.target, e.origin]),
    [
      ["en", "de", "Click Save & wait", "Klicken Sie auf Speichern & warten", "user"],
      ["en", "zh-Hans", "Click Save & wait", "点击保存并等待", "user"],
    ],
  );
  assert.equal(read.skipped, 2, "pt-BR and the lone variant");
});

const NOT_TMX = [
  { name: "not XML", text: "hello <" },
  { name: "another root", text: "<html><body/></html>" },
  { name: "no body", text: '<tmx version="1.4"><header/></tmx>' },
  {
    // It read as no units at all: `{imported: 0, skipped: 0}` for a file full of them.
    name: "two bodies",
    text: '<tmx version="1.4"><header/><body><tu/></body><body><tu/></body></tmx>',
  },
];

for (const { name, text } of NOT_TMX) {
  Deno.test(`fromTmx refuses ${name}`, () => {
    assert.throws(() => fromTmx(text), TmxError);
  });
}

Deno.test("toLanguageCode maps TMX tags onto the 16 codes", () => {
  assert.equal(toLanguageCode("ZH-TW"), "zh-Hant");
  assert.equal(toLanguageCode("zh_Hans_CN"), "zh-Hans");
  assert.equal(toLanguageCode("tl-PH"), "fil");
  assert.equal(toLanguageCode("en-GB"), "en");
  assert.equal(toLanguageCode("pt-PT"), undefined);
});

/** Tags naming a script other than the one tolk's language is written in, and Mandarin's. */
const SCRIPT_TAGS: [string, string | undefined][] = [
  ["ms-Arab", undefined], // Jawi: an en→ms hit answered in Arabic script
  ["ms-Latn-MY", "ms"],
  ["en-Dsrt", undefined],
  ["ja-Jpan-JP", "ja"],
  ["ja-Latn", undefined], // rōmaji
  ["ko-Kore", "ko"],
  ["sr-Latn", undefined],
  ["cmn-Hans-CN", "zh-Hans"],
  ["cmn-Hant-TW", "zh-Hant"],
  ["zh-Latn-pinyin", undefined],
];

for (const [tag, code] of SCRIPT_TAGS) {
  Deno.test(`toLanguageCode reads ${tag} as ${code ?? "none of the 16"}`, () => {
    assert.equal(toLanguageCode(tag), code);
  });
}

Deno.test("fromTmx reads a standalone code as its native code and skips what it cannot read faithfully", () => {
  const xml = `<?xml version="1.0"?>
<!DOCTYPE tmx [ <!ENTITY b "brand"> ]>
<tmx version="1.4"><header srclang="en" creationtool="Trados" segtype="sentence" o-tmf="x" adminlang="en" datatype="plaintext"/>
<body>
<tu><tuv xml:lang="en"><seg>Found <ph x="1">{0}</ph> files</seg></tuv>
<tuv xml:lang="es"><seg>Se encontraron <ph x="1">{0}</ph> archivos</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>Line one<ph x="2" type="lb" />line two</seg></tuv>
<tuv xml:lang="fr"><seg>Ligne un<ph x="2" type="lb" />ligne deux</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>&b; rocks</seg></tuv><tuv xml:lang="fr"><seg>&b; roule</seg></tuv></tu>
<tu srclang="*all*"><tuv xml:lang="fr"><seg>Bonjour</seg></tuv><tuv xml:lang="en"><seg>Hello</seg></tuv></tu>
</body></tmx>`;
  const read = fromTmx(xml);
  assert.deepEqual(read.entries.map((e) => [e.sourceLang, e.targetLang, e.source, e.target]), [
    ["en", "es", "Found {0} files", "Se encontraron {0} archivos"],
    ["fr", "en", "Bonjour", "Hello"],
    ["en", "fr", "Hello", "Bonjour"],
  ]);
  assert.equal(read.skipped, 2, "the line break code and the DTD's entity");
});

Deno.test("toTmx writes placeholder tokens as codes (half a pair as <it>), fromTmx reads them back", () => {
  const entry = {
    sourceLang: "en",
    targetLang: "fr",
    source: "<x1>Open</x1> the <x2>menu<x3/>",
    target: "Ouvrez <x1>le</x1> <x2>menu<x3/>",
    origin: "engine",
    created: 1_790_000_000,
  } as const;
  const xml = toTmx([entry], "0.1.0 (test)");
  assert.ok(xml.includes('<it pos="begin">&lt;x2&gt;</it>menu<ph x="3">&lt;x3/&gt;</ph>'), xml);
  assert.ok(!/<seg>[^<]*&lt;x/.test(xml), "no token as text");
  assert.deepEqual(fromTmx(xml).entries, [entry]);
});

Deno.test("fromTmx names the line and column of XML that is not well-formed, in words", () => {
  const xml = '<tmx version="1.4"><body>\n<tu><tuv xml:lang="en"><seg>a</seg></tu>\n</body></tmx>';
  assert.throws(() => fromTmx(xml), (error: Error) => {
    assert.ok(error instanceof TmxError);
    assert.match(
      error.message,
      /^not well-formed XML at line 2, column \d+: Expected closing tag 'tuv' \(opened in line 2, col \d+\) instead of closing tag 'tu'$/,
    );
    return true;
  });
});

Deno.test("fromTmx names the line of a document that has no element, with no column it does not know", () => {
  assert.throws(
    () => fromTmx('<?xml version="1.0"?>\n'),
    (error: Error) => error.message === "not well-formed XML at line 1: Start tag expected",
  );
});
