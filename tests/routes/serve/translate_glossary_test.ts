/**
 * Glossaries applied on every engine: the chat engines through the stand-in (one that follows
 * the terms, one that ignores them), the built-in engine with the tiny model, HTTP and WebSocket.
 */
import assert from "node:assert/strict";
import { GlossarySchema } from "../../../schemas/glossary.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { termApplied } from "../../../translation/glossary/term_check.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { withBuiltInGlossary } from "../../support/glossary_service.ts";
import { translateOverWebSocket } from "../../support/chat_engine_checks.ts";
import { type OllamaStandIn, type OllamaStandInOptions } from "../../support/ollama_stand_in.ts";
import { postTranslate, type TestService } from "../../support/translation_service.ts";

const ENTRIES = "database\tDatenbank\ntolk\t\nserver\tServer\nunused term\tUnbenutzt\n";
const TEXT = "Open the database in tolk.";
const KOREAN = "데이터베이스\tdatabase\n서버\tserver\n관계형 데이터베이스\trelational database\n";

async function withChatService(
  options: OllamaStandInOptions,
  fn: (service: TestService, runner: OllamaStandIn, glossaryId: string) => Promise<void>,
) {
  await withStandInService(options, async (service, runner) => {
    const glossary = await expectBody(
      await dataRequest(service, "POST", "/v1/glossaries", {
        name: "Product",
        dictionaries: [
          { source_lang: "en", target_lang: "de", entries: ENTRIES, entries_format: "tsv" },
          {
            source_lang: "ja",
            target_lang: "en",
            entries: "データベース\tdatabase\n",
            entries_format: "tsv",
          },
          { source_lang: "ko", target_lang: "en", entries: KOREAN, entries_format: "tsv" },
          {
            source_lang: "en",
            target_lang: "ko",
            entries: "database\t데이터베이스\n",
            entries_format: "tsv",
          },
        ],
      }),
      201,
      GlossarySchema,
    );
    await fn(service, runner, glossary.glossary_id);
  });
}

function request(glossaryId: string, text = TEXT, source = "en", target = "de") {
  return {
    source,
    target,
    texts: [text],
    options: { engine: "engine-one", glossary_id: glossaryId },
  };
}

function systemPrompt(runner: OllamaStandIn, index: number): string {
  const messages = runner.chats[index].messages as { role: string; content: string }[];
  return messages.find((m) => m.role === "system")!.content;
}

Deno.test("a chat engine gets only the matched terms, do-not-translate ones marked, and the answer is checked", async () => {
  await withChatService({ glossary: "apply" }, async (service, runner, glossaryId) => {
    const response = await postTranslate(service, request(glossaryId));
    assert.equal(response.headers.get("svc-glossary-report"), "matched=2; applied=2");
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.equal(body.results[0].text, "[translated] Open the Datenbank in tolk.");
    assert.equal(runner.chats.length, 1, "nothing to retry");
    const system = systemPrompt(runner, 0);
    assert.match(system, /"database" → "Datenbank"/);
    assert.match(system, /"tolk" → do not translate/);
    assert.ok(!system.includes("unused term") && !system.includes("server"), "only matched terms");
  });
});

Deno.test("a chat engine that ignores the terms is asked once more, and the report counts the miss", async () => {
  await withChatService({ glossary: "ignore" }, async (service, runner, glossaryId) => {
    const response = await postTranslate(service, request(glossaryId));
    // "tolk" comes back as written (kept); "database" never becomes "Datenbank".
    assert.equal(response.headers.get("svc-glossary-report"), "matched=2; applied=1");
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.deepEqual(body.glossary, { matched: 2, applied: 1 }, "the body says it too");
    assert.equal(runner.chats.length, 2, "one retry, no more");
  });
});

Deno.test("a term missed on the first answer and used on the retry counts as applied", async () => {
  const ignoring = { content: JSON.stringify({ "1": "[translated] Open the database in tolk." }) };
  await withChatService(
    { glossary: "apply", script: [ignoring] },
    async (service, runner, glossaryId) => {
      const response = await postTranslate(service, request(glossaryId));
      assert.equal(response.headers.get("svc-glossary-report"), "matched=2; applied=2");
      const body = await expectBody(response, 200, TranslateResponseSchema);
      assert.equal(body.results[0].text, "[translated] Open the Datenbank in tolk.");
      assert.equal(runner.chats.length, 2);
    },
  );
});

Deno.test("terms of a language without spaces match as substrings (ja → en)", async () => {
  await withChatService({ glossary: "apply" }, async (service, _runner, glossaryId) => {
    const response = await postTranslate(
      service,
      request(glossaryId, "東京のデータベースを開く", "ja", "en"),
    );
    assert.equal(response.headers.get("svc-glossary-report"), "matched=1; applied=1");
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.equal(body.results[0].text, "[translated] 東京のdatabaseを開く");
  });
});

Deno.test("a Korean term followed by particles is a whole word; a derived word is not (ko → en)", async () => {
  const answer = { content: JSON.stringify({ "1": "The server uses a relational database." }) };
  await withChatService(
    { glossary: "apply", script: [answer] },
    async (service, runner, glossaryId) => {
      const text = "서버에서는 관계형 데이터베이스를 쓰고, 데이터베이스화는 하지 않는다.";
      const response = await postTranslate(service, request(glossaryId, text, "ko", "en"));
      assert.equal(response.headers.get("svc-glossary-report"), "matched=2; applied=2");
      await expectBody(response, 200, TranslateResponseSchema);
      const system = systemPrompt(runner, 0);
      assert.match(system, /"서버" → "server"/);
      assert.match(system, /"관계형 데이터베이스" → "relational database"/);
      // "데이터베이스화" (turning into a database) is another word, not the term.
      assert.ok(!system.includes('"데이터베이스" →'), system);
    },
  );
});

Deno.test("a Korean translation that puts a particle after the term applies it (en → ko)", async () => {
  const answer = (text: string) => ({ content: JSON.stringify({ "1": text }) });
  await withChatService(
    { glossary: "apply", script: [answer("데이터베이스를 엽니다.")] },
    async (service, runner, glossaryId) => {
      const response = await postTranslate(
        service,
        request(glossaryId, "Open the database.", "en", "ko"),
      );
      assert.equal(response.headers.get("svc-glossary-report"), "matched=1; applied=1");
      assert.equal(
        (await expectBody(response, 200, TranslateResponseSchema)).results[0].text,
        "데이터베이스를 엽니다.",
      );
      assert.equal(runner.chats.length, 1, "nothing to retry");
    },
  );
  // A derived word is not the term: asked once more, then counted as a miss.
  const derived = answer("데이터베이스화를 합니다.");
  await withChatService(
    { glossary: "ignore", script: [derived, derived] },
    async (service, runner, glossaryId) => {
      const response = await postTranslate(
        service,
        request(glossaryId, "Open the database.", "en", "ko"),
      );
      assert.equal(response.headers.get("svc-glossary-report"), "matched=1; applied=0");
      await expectBody(response, 200, TranslateResponseSchema);
      assert.equal(runner.chats.length, 2);
    },
  );
});

Deno.test("a glossary without the item's language pair has no effect and reports matched=0", async () => {
  await withChatService({ glossary: "apply" }, async (service, runner, glossaryId) => {
    const response = await postTranslate(service, request(glossaryId, TEXT, "en", "fr"));
    assert.equal(response.headers.get("svc-glossary-report"), "matched=0; applied=0");
    await expectBody(response, 200, TranslateResponseSchema);
    assert.ok(!systemPrompt(runner, 0).includes("Glossary"));
  });
});

Deno.test("the glossary applies over the WebSocket too", async () => {
  await withChatService({ glossary: "apply" }, async (service, _runner, glossaryId) => {
    const reply = TranslateResponseSchema.parse(
      await translateOverWebSocket(service, request(glossaryId)),
    );
    assert.equal(reply.results[0].text, "[translated] Open the Datenbank in tolk.");
    // A reply frame has no headers: the report is in the body, as in the HTTP answer's.
    assert.deepEqual(reply.glossary, { matched: 2, applied: 2 });
  });
});

Deno.test("an unknown options.glossary_id is 400 invalid_request on HTTP and the WebSocket", async () => {
  await withChatService({}, async (service, runner) => {
    const unknown = request("00000000-0000-4000-8000-000000000000");
    await expectError(
      await postTranslate(service, unknown),
      400,
      "invalid_request",
      "options.glossary_id",
    );
    const frame = await translateOverWebSocket(service, unknown) as {
      error: { code: string; param: string };
    };
    assert.equal(frame.error.code, "invalid_request");
    assert.equal(frame.error.param, "options.glossary_id");
    assert.equal(runner.chats.length, 0, "refused before any engine call");
  });
});

Deno.test("the built-in engine gets the glossary too, and the report says what its output holds", async () => {
  await withBuiltInGlossary(
    "Built-in",
    ["fr", "en"],
    "bonjour\tgood morning\nParis\t\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "fr",
        target: "en",
        texts: ["Bonjour, je vis à Paris depuis longtemps."],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      const report = response.headers.get("svc-glossary-report");
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const text = body.results[0].text;
      // Placeholders, or the run-by-run fallback: the required forms are there either way, the
      // sentence's first word capitalised as the text wrote it.
      assert.ok(text.includes("Good morning") && text.includes("Paris"), text);
      const terms = [{ source: "bonjour", target: "good morning" }, {
        source: "Paris",
        target: "",
      }];
      const applied = terms.filter((term) => termApplied(text, term, "en")).length;
      assert.equal(report, `matched=2; applied=${applied}`);
    },
  );
});

Deno.test("the built-in engine's run-by-run fallback from ja into en keeps the terms apart from the words around them", async () => {
  await withBuiltInGlossary(
    "Spaceless",
    ["ja", "en"],
    "東京\tTokyo\nデータベース\tdatabase\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "ja",
        target: "en",
        texts: ["東京のデータベースです"],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const text = body.results[0].text;
      // The tiny model loses the placeholders: the text between the terms is translated alone,
      // and the Japanese source has no space beside a term that could be kept.
      assert.match(text, /^Tokyo \S.* database \S/, text);
      assert.equal(response.headers.get("svc-glossary-report"), "matched=2; applied=2");
    },
  );
});

Deno.test("the built-in engine applies a term across inline markup and keeps every tag (<b>New</b> York)", async () => {
  await withBuiltInGlossary(
    "Across markup",
    ["en", "de"],
    "New York\tNeuyork\ntranslation memory\tTM\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        format: "html",
        texts: ["<p>I love <b>New</b> York and the translation\n  memory.</p>"],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const text = body.results[0].text;
      assert.match(text, /^<p>.*<b>Neuyork<\/b>.* TM.*<\/p>$/s, text);
      assert.equal(response.headers.get("svc-glossary-report"), "matched=2; applied=2");
    },
  );
});

Deno.test("the built-in engine keeps a do-not-translate term as the text writes it, not as the glossary does", async () => {
  await withBuiltInGlossary(
    "Kept names",
    ["fr", "en"],
    "tolk\t\nmaison\thouse\ntolk lab\t\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "fr",
        target: "en",
        texts: ["Tolk est ici. TOLK aime la maison."],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      const text = body.results[0].text;
      // "Do not translate" leaves the words alone: a sentence's capital and a shout stay.
      assert.match(text, /^Tolk\b/, text);
      assert.match(text, /\bTOLK\b/, text);
      assert.ok(!/\btolk\b/.test(text), text);
      assert.equal(response.headers.get("svc-glossary-report"), "matched=2; applied=2");
      // Across inline markup its tags stay where they were, around the words they held.
      const html = await expectBody(
        await postTranslate(service, {
          source: "fr",
          target: "en",
          format: "html",
          texts: ["<p>Le <b>Tolk</b> Lab est ici.</p>"],
          options: { engine: "local-llm", glossary_id: glossary.glossary_id },
        }),
        200,
        TranslateResponseSchema,
      );
      assert.match(html.results[0].text, /<b>Tolk<\/b> Lab/, html.results[0].text);
    },
  );
});
