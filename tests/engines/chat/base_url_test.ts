/**
 * The base URL forms users copy from the servers' documents, through POST /v1/translate: with or
 * without a trailing slash, Ollama's `…/api` (its API reference gives the address so), the
 * `…/v1` of the OpenAI-compatible documents, the chat endpoint's own address, and on engine-two
 * the `…/api/v0` and `…/api/v1` of LM Studio's own REST API (its documents and its server pane
 * show them).
 */
import assert from "node:assert/strict";
import { translateOk } from "../../support/chat_engine_checks.ts";
import { standInTranslation, startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { startChatCompletionsStandIn } from "../../support/chat_completions_stand_in.ts";
import { startTranslationService } from "../../support/translation_service.ts";

/** What is written after the server's root in `base_url`. */
const OLLAMA_SUFFIXES = ["", "/", "/api", "/api/", "/v1", "/v1/", "/api/chat"];
/** The last, the endpoint's whole address, as a client's example shows it. */
const COMPATIBLE_SUFFIXES = ["", "/", "/v1", "/v1/", "//", "/v1/chat/completions"];
/** LM Studio's native REST API prefixes, besides its OpenAI-compatible `/v1`. */
const LM_STUDIO_SUFFIXES = ["/v1", "/api/v0", "/api/v0/", "/api/v1", "/api/v1/"];

async function translateThrough(
  engine: "engine-one" | "engine-two" | "compatible-api",
  baseUrl: string,
  text: string,
): Promise<string> {
  const service = await startTranslationService({
    settings: { engines: { [engine]: { base_url: baseUrl, status_cache_ms: 0 } } },
    statusTtlMs: 0,
  });
  try {
    const request = { source: "de", target: "en", texts: [text], options: { engine } };
    return (await translateOk(service, request)).results[0].text;
  } finally {
    await service.stop();
  }
}

for (const suffix of OLLAMA_SUFFIXES) {
  Deno.test(`POST /v1/translate through engine-one whose base_url ends "${suffix}" reaches the runner's /api/chat`, async () => {
    const runner = startOllamaStandIn();
    try {
      const text = await translateThrough("engine-one", `${runner.baseUrl}${suffix}`, "Hallo Welt");
      assert.equal(text, standInTranslation("Hallo Welt"));
    } finally {
      await runner.stop();
    }
  });
}

for (const suffix of COMPATIBLE_SUFFIXES) {
  Deno.test(`POST /v1/translate through compatible-api whose base_url ends "${suffix}" reaches /v1/chat/completions`, async () => {
    const backend = startChatCompletionsStandIn({ completions: ['{"1": "Hello world"}'] });
    try {
      const text = await translateThrough(
        "compatible-api",
        `${backend.baseUrl}${suffix}`,
        "Hallo Welt",
      );
      assert.equal(text, "Hello world");
    } finally {
      await backend.stop();
    }
  });
}

for (const suffix of LM_STUDIO_SUFFIXES) {
  Deno.test(`POST /v1/translate through engine-two whose base_url ends "${suffix}" reaches /v1/chat/completions`, async () => {
    const backend = startChatCompletionsStandIn({ completions: ['{"1": "Hello world"}'] });
    try {
      const text = await translateThrough(
        "engine-two",
        `${backend.baseUrl}${suffix}`,
        "Hallo Welt",
      );
      assert.equal(text, "Hello world");
    } finally {
      await backend.stop();
    }
  });
}
