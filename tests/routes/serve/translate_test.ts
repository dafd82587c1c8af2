import assert from "node:assert/strict";
import { ENGLISH, FRENCH, GERMAN } from "../../support/sample_texts.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import {
  postTranslate as translate,
  startTranslationService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";
import {
  BUSY_RETRY_AFTER_SECONDS,
  LONG_JOB,
  refusedWhileBusy,
  startOneSlotService,
} from "../../support/busy_engine.ts";

Deno.test("POST /v1/translate translates each item in order with the local model", async () => {
  await withService(async (service) => {
    const response = await translate(service, { target: "en", texts: [FRENCH, GERMAN] });
    assert.equal(response.headers.get("svc-api-version"), "2026-11-20");
    assert.match(response.headers.get("x-request-id")!, /^[0-9a-f-]{36}$/);
    const body = await expectBody(response, 200, TranslateResponseSchema);
    assert.equal(body.engine, "local-llm");
    assert.equal(body.model, "tolk-test/tiny-nllb");
    assert.equal(body.target, "en");
    assert.deepEqual(body.results.map((r) => r.index), [0, 1]);
    assert.deepEqual(body.results.map((r) => r.detected_source), ["fr", "de"]);
    assert.notEqual(body.results[0].text, body.results[1].text);
    assert.notEqual(body.results[0].text, FRENCH);
    for (const result of body.results) assert.deepEqual(result.alternatives, []);
  });
});

Deno.test("POST /v1/translate with source auto passes items already in the target language through", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { target: "en", texts: [ENGLISH, FRENCH, ENGLISH] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.results[0].text, ENGLISH);
    assert.equal(body.results[2].text, ENGLISH);
    assert.notEqual(body.results[1].text, FRENCH);
    assert.equal(body.source, "en", "source is the language detected for most items");
    assert.equal(body.engine, "local-llm");
  });
});

Deno.test("POST /v1/translate names no engine when every item passes through", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { target: "en", texts: [ENGLISH, "12345 !!!"] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.engine, "passthrough");
    assert.deepEqual(body.results.map((r) => r.text), [ENGLISH, "12345 !!!"]);
    assert.equal(body.results[1].detected_source, "und");
  });
});

Deno.test("POST /v1/translate breaks a source tie in favour of the earliest language", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { target: "es", texts: [GERMAN, FRENCH] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.source, "de");
  });
});

Deno.test("POST /v1/translate leaves letterless items out of the response's source", async () => {
  await withService(async (service) => {
    // Numbers and emoji are in no language: two of them do not outvote one English sentence.
    const body = await expectBody(
      await translate(service, { target: "de", texts: ["12345", "🙂 !!!", ENGLISH, "678"] }),
      200,
      TranslateResponseSchema,
    );
    assert.deepEqual(body.results.map((r) => r.detected_source), ["und", "und", "en", "und"]);
    assert.equal(body.source, "en");

    const letterless = await expectBody(
      await translate(service, { target: "de", texts: ["12345", "🙂"] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(letterless.source, "und", "nothing but letterless items: und");
  });
});

Deno.test("POST /v1/translate with an explicit source still reports each item's detected language", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { source: "fr", target: "de", texts: [FRENCH, ENGLISH] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.source, "fr");
    assert.deepEqual(body.results.map((r) => r.detected_source), ["fr", "en"]);
    assert.notEqual(body.results[1].text, ENGLISH, "explicit source: the item is translated");
  });
});

Deno.test("POST /v1/translate counts usage in code points, an emoji as one", async () => {
  await withService(async (service) => {
    const texts = ["😀😀😀", ENGLISH];
    const body = await expectBody(
      await translate(service, { target: "en", texts }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.usage.input_chars, 3 + [...ENGLISH].length);
    assert.equal(body.usage.output_chars, 3 + [...ENGLISH].length);
  });
});

Deno.test("POST /v1/translate returns up to 3 distinct alternatives when asked", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, {
        target: "en",
        texts: [FRENCH],
        options: { return_alternatives: true },
      }),
      200,
      TranslateResponseSchema,
    );
    const { alternatives, text, confidence } = body.results[0];
    assert.ok(alternatives.length <= 3);
    assert.equal(new Set(alternatives).size, alternatives.length, "alternatives are distinct");
    assert.ok(!alternatives.includes(text), "an alternative differs from the translation");
    assert.ok(confidence >= 0 && confidence <= 1);
  });
});

Deno.test("POST /v1/translate with preserve_formatting keeps line breaks and indentation", async () => {
  await withService(async (service) => {
    const text = `  ${FRENCH}\n\n\t${GERMAN}\n`;
    const body = await expectBody(
      await translate(service, {
        source: "fr",
        target: "en",
        texts: [text],
        options: { preserve_formatting: true },
      }),
      200,
      TranslateResponseSchema,
    );
    assert.match(body.results[0].text, /^ {2}\S[^\n]*\n\n\t\S[^\n]*\n$/);
  });
});

Deno.test("POST /v1/translate stores history with X-Svc-Client, except sensitive requests", async () => {
  await withService(async (service) => {
    await expectBody(
      await translate(service, { target: "en", texts: [FRENCH] }, { "x-svc-client": "editor/1.2" }),
      200,
      TranslateResponseSchema,
    );
    const secret = "Mon mot de passe secret est tournesol.";
    const sensitive = await expectBody(
      await translate(service, { target: "en", texts: [secret], options: { sensitive: true } }),
      200,
      TranslateResponseSchema,
    );
    const rows = service.history.list({ limit: 50 }).entries;
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0].texts, [FRENCH]);
    assert.equal(rows[0].client, "editor/1.2");
    const everything = service.logs.join("\n") + JSON.stringify(rows);
    assert.ok(!everything.includes("tournesol"), "sensitive text is nowhere");
    assert.ok(!everything.includes(sensitive.results[0].text));
    assert.ok(service.logs.some((line) => line.includes("POST /v1/translate 200")));
  });
});

Deno.test("POST /v1/translate answers 503 engine_unavailable with Retry-After when the engine queue is full", async () => {
  const service = await startOneSlotService();
  try {
    const call = (texts: string[]) => translate(service, { source: "fr", target: "en", texts });
    const refused = await refusedWhileBusy(() => call(LONG_JOB), () => call([FRENCH]));
    assert.ok(refused, "one request overlapped another and was refused");
    assert.equal(refused.headers.get("retry-after"), String(BUSY_RETRY_AFTER_SECONDS));
    await expectError(refused, 503, "engine_unavailable", null);
  } finally {
    await service.stop();
  }
});

Deno.test("POST /v1/translate: one odd item (a lone combining mark) never fails its batch", async () => {
  await withService(async (service) => {
    // The reproducer of issue 15, 10b: "\u0300" used to be detected as az and fail the batch.
    const body = await expectBody(
      await translate(service, {
        target: "de",
        texts: ["Good morning, my friend.", "\u0300"],
        options: { engine: "local-llm" },
      }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.engine, "local-llm");
    assert.notEqual(body.results[0].text, "Good morning, my friend.");
    assert.deepEqual(body.results[1], {
      index: 1,
      text: "\u0300",
      detected_source: "und",
      confidence: 0,
      alternatives: [],
    });
  });
});

Deno.test("POST /v1/translate never loses a segment the local model answers with nothing", async () => {
  // The tiny model ends at once for "World!" into German, and for "World" into French.
  await withService(async (service) => {
    // Each case: the items, and what of them must come back (the second item's other text is
    // translated into gibberish).
    const cases = [
      { target: "de", format: "text", texts: ["World!", "Hello"], keeps: "" },
      {
        target: "de",
        format: "html",
        texts: ["<p>World!</p>", "<p><b>World!</b> Hello</p>"],
        keeps: "<p><b>World!</b> ",
      },
      {
        target: "fr",
        format: "markdown",
        texts: ["World", "- World\n- Hello"],
        keeps: "- World\n- ",
      },
    ] as const;
    for (const { target, format, texts, keeps } of cases) {
      const body = await expectBody(
        await translate(service, { source: "en", target, format, texts: [...texts] }),
        200,
        TranslateResponseSchema,
      );
      const [first, second] = body.results.map((result) => result.text);
      assert.equal(first, texts[0], `${format}: kept as written`);
      assert.ok(second.startsWith(keeps), `${format}: ${second}`);
    }
    const kept = service.logs.filter((line) =>
      /^format fallback: \d+ text runs came back/.test(line)
    );
    assert.equal(kept.length, cases.length, service.logs.join("\n"));
  });
});

Deno.test("POST /v1/translate changes the Chinese script with no engine at all", async () => {
  await withService(async (service) => {
    const body = await expectBody(
      await translate(service, { source: "zh-Hans", target: "zh-Hant", texts: ["汉语软件"] }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(body.engine, "passthrough");
    assert.equal(body.results[0].text, "漢語軟件");
  }, { settings: { engines: { "local-llm": { model: "nobody/missing" } } } });
});

Deno.test("POST /v1/translate: a client that leaves mid-translation is a 499 in the log, not an unexpected 500", async () => {
  // A model runner that lists its model and answers no chat until the service gives up on it.
  let chats = 0;
  const runner = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    if (new URL(request.url).pathname === "/api/tags") {
      return Response.json({ models: [{ name: "slow:latest", model: "slow:latest" }] });
    }
    if (new URL(request.url).pathname !== "/api/chat") return new Response(null, { status: 404 });
    chats++;
    const { promise, resolve } = Promise.withResolvers<Response>();
    request.signal.addEventListener("abort", () => resolve(new Response(null, { status: 499 })));
    setTimeout(() => resolve(new Response(null, { status: 500 })), 3000);
    return promise;
  });
  const service = await startTranslationService({
    settings: {
      engines: {
        "engine-one": {
          base_url: `http://127.0.0.1:${runner.addr.port}`,
          status_cache_ms: 0,
        },
      },
    },
    statusTtlMs: 0,
  });
  try {
    await assert.rejects(
      fetch(`${service.url}/v1/translate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-svc-token": service.token },
        body: JSON.stringify({ target: "de", texts: [FRENCH], options: { engine: "engine-one" } }),
        signal: AbortSignal.timeout(300),
      }),
    );
    while (!service.logs.some((line) => / POST \/v1\/translate /.test(line))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(chats, 1);
    assert.deepEqual(service.logs.filter((line) => /unexpected| 500 /.test(line)), []);
    assert.ok(service.logs.some((line) => / client closed the request$/.test(line)));
    assert.ok(service.logs.some((line) => / POST \/v1\/translate 499 /.test(line)));
  } finally {
    await service.stop();
    await runner.shutdown();
  }
});

Deno.test("POST /v1/translate with a model that does not do the pair, or an id too long for a path, is a 503 naming it, not a 500", async () => {
  await withService(async (service) => {
    const pair = await expectError(
      await translate(service, {
        source: "en",
        target: "de",
        texts: ["Hello world"],
        options: { model: "tolk-test/tiny-marian" },
      }),
      503,
      "engine_unavailable",
    );
    assert.match(pair.error.message, /tolk-test\/tiny-marian cannot translate into "de"/);
    const long = await expectError(
      await translate(service, {
        source: "en",
        target: "de",
        texts: ["Hello world"],
        options: { model: `${"a".repeat(300)}/b` },
      }),
      503,
      "engine_unavailable",
    );
    assert.match(long.error.message, /is not installed/);
    assert.deepEqual(service.logs.filter((line) => /unexpected/.test(line)), []);
  });
});
