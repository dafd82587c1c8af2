/**
 * The chat engines through POST /v1/translate against backends whose 200 answers have an odd
 * shape: JSON that is no object, the translation in a tool call or in a JSON string, the
 * placeholder tokens written HTML-escaped.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import {
  COMPATIBLE,
  ENGINE_ONE,
  engineFailureMessage,
  postTranslate,
  translateOk,
} from "../../support/chat_engine_checks.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";
import { chatCompletion } from "../../support/chat_completions_stand_in.ts";

/** JSON bodies that are no object, as a broken proxy may answer with a 200. */
const NOT_OBJECTS = ["null", "42", '"ok"', "true"];

for (const json of NOT_OBJECTS) {
  Deno.test(`POST /v1/translate answers 500 naming the engine when the backend's chat answer is ${json}`, async () => {
    // A string body goes as it is: the JSON text, labelled text/plain.
    const reply = { status: 200, body: json };
    await withChatCompletionsService({ completions: [reply] }, async (service) => {
      const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
      assert.match(
        message,
        /^compatible-api failed: .* answered JSON that is not an object/,
      );
    });
    const script = [{ body: json, contentType: "application/json" }];
    await withStandInService({ script }, async (service) => {
      const message = await engineFailureMessage(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
      assert.match(
        message,
        /^engine-one failed: .* answered JSON that is not an object/,
      );
    });
  });

  Deno.test(`a model list answered as ${json} makes compatible-api unavailable, saying so`, async () => {
    const modelsReply = { status: 200, body: json };
    await withChatCompletionsService({ modelsReply }, async (service) => {
      const error = await expectError(
        await postTranslate(service, { ...COMPATIBLE, texts: ["Bonjour"] }),
        503,
        "engine_unavailable",
      );
      assert.match(
        error.error.message,
        /^compatible-api is unavailable: .* answered JSON that is not an object/,
      );
    });
  });
}

/** A tool call as servers write it, its arguments a JSON string (OpenAI) or an object. */
function toolCall(args: unknown) {
  return { id: "call_1", type: "function", function: { name: "translations", arguments: args } };
}

/**
 * Servers that honour a JSON Schema by tool calling (LiteLLM in front of some providers, a chat
 * template that makes the model call a tool) answer with content null or empty and the JSON as
 * the call's arguments.
 */
const TOOL_CALL_ANSWERS = [
  {
    name: "content null, arguments a string",
    message: { content: null, tool_calls: [toolCall('{"1": "Hello"}')] },
  },
  {
    name: "content empty, arguments an object",
    message: { content: "", tool_calls: [toolCall({ "1": "Hello" })] },
  },
  {
    name: "content null, reasoning and a tool call",
    message: {
      content: null,
      reasoning_content: "The user wants English.",
      tool_calls: [toolCall('{"1": "Hello"}')],
    },
  },
];

for (const { name, message } of TOOL_CALL_ANSWERS) {
  Deno.test(`POST /v1/translate reads the translation from a tool call's arguments (${name}), asking once`, async () => {
    await withChatCompletionsService(
      { completions: [chatCompletion(message)] },
      async (service, backend) => {
        const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour"] });
        assert.equal(body.results[0].text, "Hello");
        assert.equal(backend.chats.length, 1);
      },
    );
  });
}

Deno.test("POST /v1/translate reads an answer written as a JSON string holding the JSON (encoded twice), asking once", async () => {
  const twice = JSON.stringify(JSON.stringify({ "1": "Hello", "2": "Thank you" }));
  await withChatCompletionsService({ completions: [twice] }, async (service, backend) => {
    const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour", "Merci"] });
    assert.deepEqual(body.results.map((result) => result.text), ["Hello", "Thank you"]);
    assert.equal(backend.chats.length, 1);
  });
});

/** Answers whose placeholder tokens a model wrote HTML-escaped, and the HTML they must give. */
const ESCAPED_ANSWERS = [
  {
    name: "the tokens escaped",
    text: "<b>Bonjour</b> monde",
    answer: "&lt;x1&gt;Hello&lt;/x1&gt; world",
    html: "<b>Hello</b> world",
  },
  {
    name: "the whole answer escaped",
    text: "<b>Tom</b> et Jerry",
    answer: "&lt;x1&gt;Tom&lt;/x1&gt; &amp; &quot;Jerry&quot;",
    // As for the same answer written unescaped: the HTML writer leaves a lone & as it is.
    html: '<b>Tom</b> & "Jerry"',
  },
];

for (const { name, text, answer, html } of ESCAPED_ANSWERS) {
  Deno.test(`POST /v1/translate reads an answer with ${name} (&lt;x1&gt;) as the tokens, asking once`, async () => {
    const completions = [JSON.stringify({ "1": answer })];
    await withChatCompletionsService({ completions }, async (service, backend) => {
      const request = {
        ...COMPATIBLE,
        format: "html",
        texts: [text],
      };
      const body = await translateOk(service, request);
      assert.equal(body.results[0].text, html);
      assert.equal(backend.chats.length, 1);
    });
  });
}

Deno.test("POST /v1/translate through engine-one reads a thinking model's answer from message.thinking when content is empty, asking once", async () => {
  // Ollama routes a thinking model's output, format-bound JSON included, into `thinking` and
  // leaves `content` empty (thinking is on by default for models that can).
  const answer = {
    model: "tolk-test:latest",
    message: { role: "assistant", content: "", thinking: '{"1": "Good day"}' },
    done: true,
    done_reason: "stop",
  };
  const script = [{ body: JSON.stringify(answer), contentType: "application/json" }];
  await withStandInService({ script }, async (service, runner) => {
    const body = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
    assert.equal(body.results[0].text, "Good day");
    assert.equal(runner.chats.length, 1);
  });
});

Deno.test("POST /v1/translate never returns a lone surrogate a model wrote as an escape (\\ud83d), but U+FFFD", async () => {
  // An emoji's pair cut in half: valid JSON, but no Unicode text (strict JSON readers refuse it).
  const completions = ['{"1": "Hello \\ud83d world", "2": "Thanks \\ude00"}'];
  await withChatCompletionsService({ completions }, async (service) => {
    const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour", "Merci"] });
    assert.deepEqual(body.results.map((result) => result.text), [
      "Hello \ufffd world",
      "Thanks \ufffd",
    ]);
  });
});

/** The request's payload as the service sends it, with `texts` in its items. */
function payload(texts: string[]) {
  return JSON.stringify({
    source_language: "fr",
    target_language: "en",
    items: texts.map((text, at) => ({ id: String(at + 1), text })),
  });
}

Deno.test("POST /v1/translate reads an answer that mirrors the request's payload with the texts translated, asking once", async () => {
  // What a small model does when the server ignores the schema: it copies the shape it was sent.
  const completions = [payload(["Hello", "Thank you"])];
  await withChatCompletionsService({ completions }, async (service, backend) => {
    const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour", "Merci"] });
    assert.deepEqual(body.results.map((result) => result.text), ["Hello", "Thank you"]);
    assert.equal(backend.chats.length, 1);
  });
});

Deno.test("POST /v1/translate refuses a model that echoes the request's payload untranslated: 500 after 3 requests, saying so", async () => {
  const echo = payload(["Bonjour", "Merci"]);
  await withChatCompletionsService(
    { completions: [echo, echo, echo] },
    async (service, backend) => {
      const message = await engineFailureMessage(service, {
        ...COMPATIBLE,
        texts: ["Bonjour", "Merci"],
      });
      assert.match(
        message,
        /^compatible-api failed: .*id 1: the answer repeats the request/,
      );
      assert.equal(backend.chats.length, 3);
    },
  );
});

/** nginx's own page for a proxy whose model server is down, as it sends it. */
const NGINX_502 = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n" +
  "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n" +
  "</body>\r\n</html>\r\n";

Deno.test("POST /v1/translate reads a proxy's 502 (its model server is down) as the engine unavailable, 503 quoting its page by its title", async () => {
  // Bad Gateway: the proxy cannot reach the model server, as tolk would not reach it directly;
  // engine_unavailable ("no translation provider available") lets `auto` try another engine.
  const page = { status: 502, body: NGINX_502, headers: { "content-type": "text/html" } };
  await withChatCompletionsService({ completions: [page] }, async (service) => {
    const request = { ...COMPATIBLE, texts: ["Bonjour"] };
    const response = await postTranslate(service, request);
    const error = await expectError(response, 503, "engine_unavailable");
    assert.equal(
      error.error.message,
      "compatible-api is unavailable: the backend answered HTTP 502: 502 Bad Gateway",
    );
  });
});

Deno.test("POST /v1/translate says a server's content filter withheld the answer, asking once, not 'holds no JSON' after 3", async () => {
  // Azure OpenAI (and proxies in front of it) answer so; the same text is withheld again.
  const filtered = chatCompletion({ content: null }, "content_filter");
  await withChatCompletionsService(
    { completions: [filtered, filtered, filtered] },
    async (service, backend) => {
      const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
      assert.equal(
        message,
        "compatible-api failed: the server's content filter withheld the answer (finish_reason content_filter)",
      );
      assert.equal(backend.chats.length, 1);
    },
  );
});

Deno.test("POST /v1/translate reads JSON escapes a model wrote twice (\\\\u00e9, \\\\n) as the characters when the text has no backslash", async () => {
  // The content is `{"1": "Caf\\u00e9 in Paris\\nLine two", …}`: escaped once more than JSON needs.
  const completions = [
    JSON.stringify({ "1": "Caf\\u00e9 in Paris\\nLine two", "2": "C:\\\\temp stays" }),
  ];
  await withChatCompletionsService({ completions }, async (service) => {
    const texts = ["Café à Paris\nLigne deux", "C:\\temp reste"];
    const body = await translateOk(service, { ...COMPATIBLE, texts });
    assert.deepEqual(body.results.map((result) => result.text), [
      "Café in Paris\nLine two",
      // A text with a backslash of its own keeps the answer's as they are.
      "C:\\\\temp stays",
    ]);
  });
});

/** Answers whose translations quote reasoning tags, as texts about thinking models do. */
const QUOTED_TAGS = [
  { name: "as they are", prefix: "" },
  { name: "after the model's own think block", prefix: "<think>The user wants English.</think>\n" },
];

for (const { name, prefix } of QUOTED_TAGS) {
  Deno.test(`POST /v1/translate keeps the <think> tags a translation quotes, ${name}, asking once`, async () => {
    const translations = {
      "1": "Wrap the reasoning in <think>…</think> tags.",
      "2": "Close it with </think> first.",
    };
    const completions = [prefix + JSON.stringify(translations)];
    await withChatCompletionsService({ completions }, async (service, backend) => {
      const texts = [
        "Entoure le raisonnement de balises <think>…</think>.",
        "Ferme-le d'abord avec </think>.",
      ];
      const body = await translateOk(service, { ...COMPATIBLE, texts });
      assert.deepEqual(body.results.map((result) => result.text), Object.values(translations));
      assert.equal(backend.chats.length, 1);
    });
  });
}

Deno.test("POST /v1/translate quotes a model's refusal (message.refusal, OpenAI's structured outputs), asking once", async () => {
  const refused = chatCompletion({ content: null, refusal: "I can't help with that." });
  await withChatCompletionsService(
    { completions: [refused, refused, refused] },
    async (service, backend) => {
      const message = await engineFailureMessage(service, { ...COMPATIBLE, texts: ["Bonjour"] });
      assert.equal(
        message,
        "compatible-api failed: the model refused to answer: I can't help with that.",
      );
      assert.equal(backend.chats.length, 1);
    },
  );
});

Deno.test("POST /v1/translate reads the answer from the reasoning when content is only white space (the line breaks after </think>), asking once", async () => {
  const reasoned = chatCompletion({ content: "\n\n", reasoning_content: '{"1": "Hello"}' });
  await withChatCompletionsService({ completions: [reasoned] }, async (service, backend) => {
    const body = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour"] });
    assert.equal(body.results[0].text, "Hello");
    assert.equal(backend.chats.length, 1);
  });
  const thinking = JSON.stringify({
    model: "tolk-test:latest",
    message: { role: "assistant", content: "\n\n", thinking: '{"1": "Good day"}' },
    done: true,
    done_reason: "stop",
  });
  const script = [{ body: thinking, contentType: "application/json" }];
  await withStandInService({ script }, async (service, runner) => {
    const body = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
    assert.equal(body.results[0].text, "Good day");
    assert.equal(runner.chats.length, 1);
  });
});
