/**
 * What a user with a flaky local Ollama is told over POST /v1/translate and in capabilities: a
 * model not pulled names the model and the command that fetches it, a runner that is down says
 * why the connection failed, and an answer whose multi-byte characters arrive split over writes
 * is read whole.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import {
  ENGINE_ONE,
  engineCapabilities,
  postTranslate,
  translateOk,
} from "../../support/chat_engine_checks.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { serveRawTcp } from "../../support/raw_tcp.ts";
import { startTranslationService } from "../../support/translation_service.ts";

const NOT_PULLED = "llama3.2:1b";

Deno.test("POST /v1/translate naming a model Ollama has not pulled says 503 with the model and `ollama pull`", async () => {
  await withStandInService({}, async (service, runner) => {
    const request = {
      ...ENGINE_ONE,
      texts: ["Hallo Welt"],
      options: { engine: "engine-one", model: NOT_PULLED },
    };
    const error = await expectError(
      await postTranslate(service, request),
      503,
      "engine_unavailable",
    );
    assert.equal(
      error.error.message,
      `engine-one is unavailable: model "${NOT_PULLED}" is not available (it has: ` +
        `tolk-test:latest); fetch it with \`ollama pull ${NOT_PULLED}\``,
    );
    assert.equal(runner.chats.length, 0);
  });
});

Deno.test("engine-one set to a model Ollama has not pulled is not ready; a request says `ollama pull`", async () => {
  await withStandInService({ engineOne: { model: NOT_PULLED } }, async (service) => {
    assert.equal((await engineCapabilities(service, "engine-one")).ready, false);
    const request = { ...ENGINE_ONE, texts: ["Hallo Welt"] };
    const error = await expectError(
      await postTranslate(service, request),
      503,
      "engine_unavailable",
    );
    assert.ok(error.error.message.endsWith(`\`ollama pull ${NOT_PULLED}\``), error.error.message);
  });
});

Deno.test("engine-one whose runner is down says in short why it cannot reach it; the log keeps the system's words", async () => {
  const runner = startOllamaStandIn();
  await runner.stop();
  const service = await startTranslationService({
    settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    statusTtlMs: 0,
  });
  try {
    const error = await expectError(
      await postTranslate(service, { ...ENGINE_ONE, texts: ["Hallo Welt"] }),
      503,
      "engine_unavailable",
    );
    const { message } = error.error;
    assert.equal(
      message,
      `engine-one is unavailable: cannot reach ${runner.baseUrl} (connection refused) — ` +
        "is Ollama running?",
    );
    // The operator still gets Deno's words (hyper's, the OS error code) to look up.
    assert.ok(
      service.logs.some((line) =>
        line.includes(message) && /tcp connect error: Connection refused \(os error/.test(line)
      ),
      service.logs.join("\n"),
    );
  } finally {
    await service.stop();
  }
});

/**
 * A runner on raw TCP whose /api/chat answer streams NDJSON lines, written a few bytes at a time
 * so that multi-byte characters are cut between writes, as a socket may deliver them.
 */
function startTricklingRunner(lines: string[]) {
  const encoder = new TextEncoder();
  return serveRawTcp(async (conn, request) => {
    if (request === null) return;
    const body = request.path.startsWith("/api/tags")
      ? JSON.stringify({ models: [{ name: "tolk-test:latest" }] })
      : lines.join("\n") + "\n";
    const type = request.method === "GET" ? "application/json" : "application/x-ndjson";
    const bytes = encoder.encode(body);
    await conn.write(encoder.encode(
      `HTTP/1.1 200 OK\r\ncontent-type: ${type}\r\ncontent-length: ${bytes.length}\r\n` +
        `connection: close\r\n\r\n`,
    ));
    for (let at = 0; at < bytes.length; at += 3) {
      await conn.write(bytes.subarray(at, at + 3));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  });
}

Deno.test("engine-one reads a streamed answer whose multi-byte characters arrive split between writes", async () => {
  const translation = "Grüße aus Köln — 東京 🎉";
  const answer = JSON.stringify({ "1": translation });
  const pieces = [answer.slice(0, 9), answer.slice(9, 20), answer.slice(20)];
  const lines = pieces.map((content, index) =>
    JSON.stringify({
      model: "tolk-test:latest",
      message: { role: "assistant", content },
      done: index === pieces.length - 1,
      ...(index === pieces.length - 1 ? { done_reason: "stop" } : {}),
    })
  );
  const runner = startTricklingRunner(lines);
  const service = await startTranslationService({
    settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    statusTtlMs: 0,
  });
  try {
    const body = await translateOk(service, { ...ENGINE_ONE, texts: ["Grüße aus Köln"] });
    assert.equal(body.results[0].text, translation);
  } finally {
    await service.stop();
    await runner.stop();
  }
});
