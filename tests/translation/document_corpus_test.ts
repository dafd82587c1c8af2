/**
 * The document corpus (tests/fixtures/documents/) through the real service on loopback, on
 * every engine: the built-in engine with its tiny random-weight model (gibberish text, so only
 * structure is checked), the Ollama engine against its stand-in, and against a stand-in that
 * drops, duplicates and reorders placeholders.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../schemas/translation.ts";
import {
  type CorpusDocument,
  loadCorpus,
  sentTexts,
  structureOf,
  wordsOf,
} from "../support/document_structure.ts";
import { expectBody } from "../support/http_assertions.ts";
import { standInTranslation, startOllamaStandIn } from "../support/ollama_stand_in.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService,
} from "../support/translation_service.ts";

const CORPUS = loadCorpus();

/** Spans of the chat messages that must come back byte for byte, in this order. */
const KEPT_IN_MESSAGES: Record<string, string[]> = {
  "chat_messages.txt": [
    "@maria",
    "🎉",
    "https://docs.example.com/d/abc123?usp=sharing",
    "sam.jones@example.org",
    ":pray:",
    "#launch",
    "#release2026",
    "👏🏽👏🏽",
    "😂",
    ":joy:",
    "www.cafe-example.com/menu",
  ],
  "support_thread.txt": [
    "@support_bot",
    ":confused:",
    "@anna.k",
    "https://help.example.com/articles/413-limits#split",
    "👍",
    "#ticket",
    "help+exports@example.com",
  ],
  "release_announcement.txt": [
    "📣",
    "https://example.org/blog/1-4",
    "🚀",
    "@lena",
    "@omar_dev",
    "#opensource",
    "hello@example.org",
    ":wave:",
    "#general",
  ],
};

Deno.test("the corpus holds at least 40 documents of every kind", () => {
  assert.ok(CORPUS.length >= 40, `${CORPUS.length} documents`);
  const kinds = new Set(CORPUS.map((document) => `${document.format}/${document.mode}`));
  for (const kind of ["html/webpage", "markdown/document", "text/subtitle", "text/message"]) {
    assert.ok(kinds.has(kind), kind);
  }
  for (const name of Object.keys(KEPT_IN_MESSAGES)) {
    assert.ok(CORPUS.some((document) => document.name === name), name);
  }
});

async function translate(service: TestService, document: CorpusDocument, engine: string) {
  const response = await postTranslate(service, {
    source: "en",
    target: "fr",
    texts: [document.text],
    format: document.format,
    mode: document.mode,
    options: { engine },
  });
  const body = await expectBody(response, 200, TranslateResponseSchema);
  return body.results[0].text;
}

/** The structural promises every engine must keep for a document. */
function assertStructureKept(document: CorpusDocument, output: string) {
  const source = structureOf(document);
  const translated = structureOf({ ...document, text: output });
  assert.deepEqual(translated.skeleton, source.skeleton, `${document.name}: skeleton changed`);
  if (document.text.startsWith("\uFEFF")) assert.ok(output.startsWith("\uFEFF"), "BOM kept");
  let at = 0;
  for (const kept of KEPT_IN_MESSAGES[document.name] ?? []) {
    const found = output.indexOf(kept, at);
    assert.ok(found >= at, `${document.name}: ${kept} not kept in place`);
    at = found + kept.length;
  }
}

/** Every word a reader sees went to the engine (in a segment or a fallback run). */
function assertEverythingSent(document: CorpusDocument, sent: string[]) {
  const words = new Set(sent.flatMap(wordsOf));
  const missing = structureOf(document).words.filter((word) => !words.has(word));
  assert.deepEqual(missing, [], `${document.name}: words never sent to the engine`);
}

Deno.test("built-in engine: every corpus document keeps its structure", async (t) => {
  await withTranslationService(async (service) => {
    for (const document of CORPUS) {
      await t.step(document.name, async () => {
        const output = await translate(service, document, "local-llm");
        assertStructureKept(document, output);
        assert.notEqual(output, document.text, "something was translated");
      });
    }
  });
});

/** `[` and `]` as Markdown escapes them. */
function escapedBrackets(text: string): string {
  return text.replace(/[[\]]/g, "\\$&");
}

/** Breaks the placeholders of a text in turn: drops one, doubles one, moves the last first. */
function placeholderBreaker(): (text: string) => string {
  let calls = 0;
  return (text) => {
    const tokens = text.match(/<\/?x\d+\/?>/g);
    if (!tokens) return standInTranslation(text);
    const first = tokens[0];
    const last = tokens.at(-1)!;
    switch (calls++ % 3) {
      case 0:
        return standInTranslation(text.replace(first, ""));
      case 1:
        return standInTranslation(text.replace(first, first + first));
      default:
        return standInTranslation(last + text.replace(last, "") + " ");
    }
  };
}

const STAND_INS = [
  { name: "a stand-in that keeps placeholders", translate: standInTranslation, breaks: false },
  {
    name: "a stand-in that drops, duplicates and reorders placeholders",
    translate: placeholderBreaker(),
    breaks: true,
  },
];

for (const { name, translate: answer, breaks } of STAND_INS) {
  Deno.test(`Ollama engine with ${name}: every corpus document keeps its structure`, async (t) => {
    const runner = startOllamaStandIn({ translate: answer });
    try {
      await withTranslationService(async (service) => {
        for (const document of CORPUS) {
          await t.step(document.name, async () => {
            const before = runner.chats.length;
            const output = await translate(service, document, "engine-one");
            assertStructureKept(document, output);
            assertEverythingSent(document, sentTexts(runner.chats.slice(before)));
            // Markdown writes the engine's brackets as escapes (they could make a link).
            const mark = standInTranslation("").trim();
            const written = document.name.endsWith(".md") ? escapedBrackets(mark) : mark;
            assert.ok(output.includes(written), "the engine's text is in");
          });
        }
        const fallbacks = service.logs.filter((line) => line.includes("format fallback"));
        assert.equal(fallbacks.length > 0, breaks, fallbacks.join("\n"));
      }, {
        settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
      });
    } finally {
      await runner.stop();
    }
  });
}

Deno.test("a placeholder broken once is asked again and needs no fallback", async () => {
  const seen = new Set<string>();
  const breakFirstTime = (text: string) => {
    const first = seen.has(text) ? text : text.replace(/<\/?x\d+\/?>/, "");
    seen.add(text);
    return standInTranslation(first);
  };
  const runner = startOllamaStandIn({ translate: breakFirstTime });
  try {
    await withTranslationService(async (service) => {
      const html = '<p>Read <a href="/guide">the guide</a> first.</p>';
      const output = await translate(
        service,
        { name: "inline.html", text: html, format: "html", mode: "webpage" },
        "engine-one",
      );
      assert.equal(output, '<p>[translated] Read <a href="/guide">the guide</a> first.</p>');
      assert.equal(runner.chats.length, 2, "one retry");
      assert.equal(service.logs.filter((line) => line.includes("format fallback")).length, 0);
    }, {
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    });
  } finally {
    await runner.stop();
  }
});

Deno.test("every corpus document in its own language comes back identical, detected on its visible text", async () => {
  await withTranslationService(async (service) => {
    for (const document of CORPUS) {
      const response = await postTranslate(service, {
        target: "en",
        texts: [document.text],
        format: document.format,
        mode: document.mode,
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      assert.equal(body.results[0].detected_source, "en", document.name);
      assert.equal(body.results[0].text, document.text, document.name);
    }
  });
});
