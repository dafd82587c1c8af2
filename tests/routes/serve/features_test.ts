import assert from "node:assert/strict";
import { FEATURE_NAMES, FEATURE_TABLE, type FeatureName } from "../../../schemas/features.ts";
import { CapabilitiesResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { postTranslate, withTranslationService } from "../../support/translation_service.ts";

/** A request asking for each feature a translate request can ask for. */
const ASKING: Partial<Record<FeatureName, Record<string, unknown>>> = {
  html: { format: "html", texts: ["<b>Good morning</b>"] },
  markdown: { format: "markdown", texts: ["**Good morning**"] },
  glossary: { options: { glossary_id: "g1" } },
  memory: { options: { memory: true } },
};

Deno.test("every feature a request can ask for has an asking request in this table", () => {
  const askable = FEATURE_NAMES.filter((name) => FEATURE_TABLE[name].request);
  assert.deepEqual(Object.keys(ASKING).sort(), askable.sort());
});

Deno.test("POST /v1/translate refuses each feature that capabilities report off, naming its field", async () => {
  await withTranslationService(async (service) => {
    const capabilities = await expectBody(
      await fetch(`${service.url}/v1/capabilities`),
      200,
      CapabilitiesResponseSchema,
    );
    for (const [name, asking] of Object.entries(ASKING)) {
      const feature = FEATURE_TABLE[name as FeatureName];
      assert.equal(capabilities.features[name as FeatureName], false, `${name} is off`);
      const body = { target: "de", texts: ["Good morning"], ...asking };
      const param = feature.request?.param ?? null;
      await expectError(await postTranslate(service, body), 400, "invalid_request", param);
    }
  });
});

Deno.test("POST /v1/translate refuses options.memory while features.memory is false", async () => {
  await withTranslationService(async (service) => {
    const response = await postTranslate(service, {
      target: "de",
      texts: ["Good morning"],
      options: { memory: true },
    });
    const body = await expectError(response, 400, "invalid_request", "options.memory");
    assert.match(body.error.message, /features\.memory is false/);
  });
});
