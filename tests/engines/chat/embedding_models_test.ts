/**
 * Embedding models a runner lists beside its chat models: never chosen for translation, listed
 * as not ready in capabilities, and refused (503 saying why) when a request names one, whether
 * their name says "embed" or only their family does (Ollama's `/api/tags` details).
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import {
  assertNotReadyWith,
  assertPassesOver,
  COMPATIBLE,
  ENGINE_ONE,
  postTranslate,
  translateOk,
} from "../../support/chat_engine_checks.ts";
import { STAND_IN_MODEL } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";

/** Embedding models as Ollama's library names them, and the family its tags give each. */
const OLLAMA_EMBEDDING_MODELS: Record<string, string> = {
  "bge-m3:latest": "bert",
  "all-minilm:latest": "bert",
  "nomic-embed-text:latest": "nomic-bert",
  "mxbai-embed-large:latest": "bert",
  "snowflake-arctic-embed:latest": "bert",
  "paraphrase-multilingual:latest": "bert",
  "granite-embedding:278m": "bert",
  "qwen3-embedding:0.6b": "qwen3",
};

for (const [name, family] of Object.entries(OLLAMA_EMBEDDING_MODELS)) {
  Deno.test(`engine-one does not translate with ${name} (family ${family}) listed first`, async () => {
    const options = { models: [name, STAND_IN_MODEL], families: { [name]: family } };
    await withStandInService(options, async (service, runner) => {
      await assertPassesOver(service, runner, name);
    });
  });
}

Deno.test("engine-one refuses a request naming an embedding model (503 saying so), asking nothing", async () => {
  const options = {
    models: ["bge-m3:latest", STAND_IN_MODEL],
    families: { "bge-m3:latest": "bert" },
  };
  await withStandInService(options, async (service, runner) => {
    const request = { ...ENGINE_ONE, texts: ["Guten Tag"] };
    request.options = { ...request.options, model: "bge-m3" } as typeof request.options;
    const error = await expectError(
      await postTranslate(service, request),
      503,
      "engine_unavailable",
    );
    assert.match(error.error.message, /bge-m3.*embedding model/);
    assert.equal(runner.chats.length, 0);
  });
});

Deno.test("engine-one with only an embedding model is not ready, saying so", async () => {
  const options = { models: ["all-minilm:latest"], families: { "all-minilm:latest": "bert" } };
  await withStandInService(options, async (service, runner) => {
    await assertNotReadyWith(service, runner, /all-minilm.*embedding model/);
  });
});

/** Embedding models as LM Studio and OpenAI-style servers list them (no family to read). */
const LISTED_EMBEDDING_IDS = [
  "text-embedding-nomic-embed-text-v1.5",
  "text-embedding-bge-m3",
  "all-MiniLM-L6-v2",
  "BAAI/bge-large-en-v1.5",
  "intfloat/multilingual-e5-large",
];

for (const id of LISTED_EMBEDDING_IDS) {
  Deno.test(`compatible-api does not translate with ${id} listed first`, async () => {
    const models = [{ id }, { id: "stand-in" }];
    await withChatCompletionsService(
      { models, completions: ['{"1": "Hello"}'] },
      async (service, backend) => {
        const result = await translateOk(service, { ...COMPATIBLE, texts: ["Bonjour"] });
        assert.equal(result.model, "stand-in");
        assert.deepEqual(backend.chats.map((chat) => chat.model), ["stand-in"]);
      },
    );
  });
}
