/**
 * Ollama's cloud models (`ollama pull gpt-oss:120b-cloud`) are listed by `/api/tags` beside the
 * pulled ones, newest first, with the `remote_host` that runs them (`https://ollama.com:443`):
 * a request for one goes from the local runner to that host. tolk forwards no text off the
 * machine (the settings take only loopback addresses), so such a model is never chosen, is
 * listed as not ready, and a request naming one is refused (503 saying where it runs).
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import {
  assertNotReadyWith,
  assertPassesOver,
  ENGINE_ONE,
  postTranslate,
} from "../../support/chat_engine_checks.ts";
import { STAND_IN_MODEL } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

const CLOUD_MODEL = "gpt-oss:120b-cloud";
const CLOUD = {
  models: [CLOUD_MODEL, STAND_IN_MODEL],
  remoteHosts: { [CLOUD_MODEL]: "https://ollama.com:443" },
};

Deno.test("engine-one never translates with a cloud model Ollama lists first; capabilities list it as not ready", async () => {
  await withStandInService(CLOUD, async (service, runner) => {
    await assertPassesOver(service, runner, CLOUD_MODEL);
  });
});

Deno.test("engine-one refuses a request naming a cloud model (503 naming its host), sending nothing", async () => {
  await withStandInService(CLOUD, async (service, runner) => {
    const request = {
      ...ENGINE_ONE,
      texts: ["Guten Tag"],
      options: { ...ENGINE_ONE.options, model: CLOUD_MODEL },
    };
    const error = await expectError(
      await postTranslate(service, request),
      503,
      "engine_unavailable",
    );
    assert.match(error.error.message, /gpt-oss:120b-cloud.*https:\/\/ollama\.com:443/);
    assert.equal(runner.chats.length, 0);
  });
});

Deno.test("engine-one with only a cloud model is not ready, saying why", async () => {
  const options = { models: [CLOUD_MODEL], remoteHosts: CLOUD.remoteHosts };
  await withStandInService(options, async (service, runner) => {
    await assertNotReadyWith(
      service,
      runner,
      /runs on https:\/\/ollama\.com:443, not on this machine/,
    );
  });
});
