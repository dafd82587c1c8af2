/**
 * The chat engines when a backend's answer stops before its end: the connection closed in the
 * middle of a JSON body or of an SSE stream (asked again once; a second drop is 503 as the runner
 * is failing), or a body whole on the wire whose JSON ends early (asked again like a stream cut
 * short, then a 500 saying so).
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
import {
  chunkedAnswer,
  completionBody,
  type CuttingBackend,
  jsonAnswer,
  ollamaBody,
  type RawAnswer,
  startCuttingBackend,
} from "../../support/cutting_backend.ts";
import {
  engineAt,
  type TestService,
  withTranslationService,
} from "../../support/translation_service.ts";

type ChatEngine = "compatible-api" | "engine-one";

/** Starts the backend with `script`, a service whose `engine` uses it, runs `fn`, stops both. */
async function withCuttingBackend(
  engine: ChatEngine,
  script: RawAnswer[],
  fallback: RawAnswer | undefined,
  fn: (service: TestService, backend: CuttingBackend) => Promise<void>,
): Promise<void> {
  const backend = startCuttingBackend({ script, fallback });
  try {
    await withTranslationService(
      (service) => fn(service, backend),
      engineAt(engine, backend.baseUrl),
    );
  } finally {
    await backend.stop();
  }
}

/** The whole answer of `engine` translating its one text as "Hello". */
function goodAnswer(engine: ChatEngine): RawAnswer {
  const content = '{"1": "Hello"}';
  return jsonAnswer(engine === "engine-one" ? ollamaBody(content) : completionBody(content));
}

function request(engine: ChatEngine) {
  return { ...(engine === "engine-one" ? ENGINE_ONE : COMPATIBLE), texts: ["Bonjour"] };
}

/** An SSE chunk of a chat-completions stream whose delta is `content`. */
function sseEvent(content: string): string {
  const chunk = { object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Answers whose connection closes mid-answer, per engine. */
const DROPS: { name: string; engine: ChatEngine; answer: RawAnswer }[] = [
  {
    name: "a JSON body shorter than its Content-Length",
    engine: "compatible-api",
    answer: jsonAnswer(completionBody('{"1": "Hello"}').slice(0, 60), 400),
  },
  {
    name: "an SSE stream without its last chunk",
    engine: "compatible-api",
    answer: chunkedAnswer([sseEvent('{"1": '), sseEvent('"Hel')], "text/event-stream", false),
  },
  {
    name: "a JSON body shorter than its Content-Length",
    engine: "engine-one",
    answer: jsonAnswer(ollamaBody('{"1": "Hello"}').slice(0, 60), 400),
  },
];

for (const { name, engine, answer } of DROPS) {
  Deno.test(`POST /v1/translate through ${engine} asks again once when ${name} drops: 200`, async () => {
    await withCuttingBackend(engine, [answer], goodAnswer(engine), async (service, backend) => {
      const result = await translateOk(service, request(engine));
      assert.equal(result.results[0].text, "Hello");
      assert.equal(backend.chats(), 2);
    });
  });

  Deno.test(`POST /v1/translate through ${engine} is 503 when ${name} drops twice, asked twice`, async () => {
    await withCuttingBackend(
      engine,
      [answer, answer],
      goodAnswer(engine),
      async (service, backend) => {
        const error = await expectError(
          await postTranslate(service, request(engine)),
          503,
          "engine_unavailable",
        );
        assert.match(error.error.message, /dropped the connection in the middle of its answer/);
        assert.equal(backend.chats(), 2);
      },
    );
  });
}

/** Bodies whole on the wire whose JSON document ends early: a server that wrote it cut. */
const ENDED_EARLY: { engine: ChatEngine; answer: RawAnswer }[] = [
  { engine: "compatible-api", answer: jsonAnswer(completionBody('{"1": "Hello"}').slice(0, 70)) },
  { engine: "engine-one", answer: jsonAnswer(ollamaBody('{"1": "Hello"}').slice(0, 60)) },
  {
    engine: "compatible-api",
    answer: chunkedAnswer(
      [completionBody('{"1": "Hello"}').slice(0, 70)],
      "application/json",
      true,
    ),
  },
  {
    engine: "compatible-api",
    answer: chunkedAnswer([sseEvent('{"1": '), 'data: {"choi'], "text/event-stream", true),
  },
];

for (const [at, { engine, answer }] of ENDED_EARLY.entries()) {
  Deno.test(`POST /v1/translate through ${engine} asks again when its JSON body ends early (${at}): 200`, async () => {
    await withCuttingBackend(engine, [answer], goodAnswer(engine), async (service, backend) => {
      const result = await translateOk(service, request(engine));
      assert.equal(result.results[0].text, "Hello");
      assert.equal(backend.chats(), 2);
    });
  });

  Deno.test(`POST /v1/translate through ${engine} says a JSON body ends early after the retries (${at}): 500`, async () => {
    await withCuttingBackend(engine, [], answer, async (service, backend) => {
      const message = await engineFailureMessage(service, request(engine));
      assert.match(
        message,
        new RegExp(
          `^${engine} failed: .*id 1: .*(answer ended before its JSON|stream ended before its answer)`,
        ),
      );
      assert.equal(backend.chats(), 3);
    });
  });
}
