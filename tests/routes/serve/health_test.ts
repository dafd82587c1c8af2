import assert from "node:assert/strict";
import { HealthResponseSchema } from "../../../schemas/translation.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withTranslationService } from "../../support/translation_service.ts";

Deno.test("GET /v1/health reports app, version, uptime and readiness without auth", async () => {
  await withTranslationService(async (service) => {
    const response = await fetch(`${service.url}/v1/health`);
    assert.equal(response.headers.get("svc-api-version"), "2026-11-20");
    const body = await expectBody(response, 200, HealthResponseSchema);
    assert.equal(body.status, "ok");
    assert.equal(body.app, "tolk");
    assert.equal(body.api_version, "v1");
    assert.match(body.version, /^\d+\.\d+\.\d+ \(.+\)$/);
    assert.equal(body.ready, true, "the fixture model is installed");
  });
});

Deno.test("GET /v1/health is not ready when no engine could translate", async () => {
  await withTranslationService(async (service) => {
    const body = await expectBody(
      await fetch(`${service.url}/v1/health`),
      200,
      HealthResponseSchema,
    );
    assert.equal(body.ready, false);
  }, {
    settings: { engines: { "local-llm": { model: "missing/model" } } },
  });
});
