/**
 * End-to-end checks shared by the LLM engine tests: capabilities, POST /v1/translate and one
 * WebSocket frame against the real translation service.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import type { EngineId } from "../../schemas/languages.ts";
import {
  CapabilitiesResponseSchema,
  type EngineSchema,
  TranslateResponseSchema,
} from "../../schemas/translation.ts";
import { expectBody, expectError } from "./http_assertions.ts";
import { STAND_IN_MODEL } from "./ollama_stand_in.ts";
import { postTranslate, type TestService } from "./translation_service.ts";

// Texts the detector reads with certainty, so the engine gets them with a known source.
export { FRENCH, GERMAN } from "./sample_texts.ts";
export { postTranslate };

/** Requests without their texts: French to English on compatible-api, German on engine-one. */
export const COMPATIBLE = { target: "en", source: "fr", options: { engine: "compatible-api" } };
export const ENGINE_ONE = { target: "en", source: "de", options: { engine: "engine-one" } };

/** The capabilities entry of one engine. */
export async function engineCapabilities(
  service: TestService,
  id: EngineId,
): Promise<z.infer<typeof EngineSchema>> {
  const response = await fetch(`${service.url}/v1/capabilities`);
  const body = await expectBody(response, 200, CapabilitiesResponseSchema);
  const engine = body.engines.find((entry) => entry.id === id);
  assert.ok(engine, `${id} is listed in capabilities`);
  return engine;
}

/**
 * engine-one, whose runner lists `skipped` before the stand-in's model, translates with the
 * stand-in's model only (the runner is asked for no other), and capabilities list `skipped` as not
 * ready beside it.
 */
export async function assertPassesOver(
  service: TestService,
  runner: { chats: Record<string, unknown>[] },
  skipped: string,
): Promise<void> {
  const result = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
  assert.equal(result.model, STAND_IN_MODEL);
  assert.deepEqual(runner.chats.map((chat) => chat.model), [STAND_IN_MODEL]);
  const engine = await engineCapabilities(service, "engine-one");
  assert.equal(engine.ready, true);
  assert.deepEqual(
    engine.models?.map((model) => [model.id, model.ready]),
    [[skipped, false], [STAND_IN_MODEL, true]],
  );
}

/**
 * engine-one, whose runner lists only a model it must not use, is not ready, and a translation is
 * a 503 whose message matches `why`, with nothing asked of the runner.
 */
export async function assertNotReadyWith(
  service: TestService,
  runner: { chats: Record<string, unknown>[] },
  why: RegExp,
): Promise<void> {
  const engine = await engineCapabilities(service, "engine-one");
  assert.equal(engine.ready, false);
  const error = await expectError(
    await postTranslate(service, { ...ENGINE_ONE, texts: ["Guten Tag"] }),
    503,
    "engine_unavailable",
  );
  assert.match(error.error.message, why);
  assert.equal(runner.chats.length, 0);
}

/** POST /v1/translate that must succeed; returns the parsed body. */
export async function translateOk(
  service: TestService,
  body: unknown,
): Promise<z.infer<typeof TranslateResponseSchema>> {
  return await expectBody(await postTranslate(service, body), 200, TranslateResponseSchema);
}

/** Sends one frame over /v1/ws/translate and returns its one reply (parsed JSON). */
export async function translateOverWebSocket(
  service: TestService,
  frame: unknown,
): Promise<unknown> {
  const socket = new WebSocket(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
  const closed = new Promise((resolve) => socket.addEventListener("close", resolve));
  try {
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error("WebSocket failed to open"));
    });
    const reply = new Promise<unknown>((resolve) => {
      socket.onmessage = (event) => resolve(JSON.parse(event.data));
    });
    socket.send(JSON.stringify(frame));
    return await reply;
  } finally {
    if (socket.readyState === WebSocket.OPEN) socket.close(1000);
    await closed;
  }
}

/** The message of the 500 `internal_error` a translate request whose engine failed answers. */
export async function engineFailureMessage(
  service: TestService,
  body: Record<string, unknown>,
): Promise<string> {
  const error = await expectError(await postTranslate(service, body), 500, "internal_error");
  return error.error.message;
}
