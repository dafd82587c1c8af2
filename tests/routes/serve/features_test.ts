import assert from "node:assert/strict";
import { FEATURE_NAMES, FEATURE_TABLE, type FeatureName } from "../../../schemas/features.ts";
import {
  CapabilitiesResponseSchema,
  TranslateResponseSchema,
} from "../../../schemas/translation.ts";
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

Deno.test("POST /v1/translate refuses each feature capabilities report off and serves each one on", async () => {
  await withTranslationService(async (service) => {
    const capabilities = await expectBody(
      await fetch(`${service.url}/v1/capabilities`),
      200,
      CapabilitiesResponseSchema,
    );
    for (const [name, asking] of Object.entries(ASKING)) {
      const feature = FEATURE_TABLE[name as FeatureName];
      const body = { target: "de", texts: ["Good morning"], ...asking };
      const response = await postTranslate(service, body);
      if (capabilities.features[name as FeatureName]) {
        await expectBody(response, 200, TranslateResponseSchema);
        continue;
      }
      const param = feature.request?.param ?? null;
      await expectError(response, 400, "invalid_request", param);
    }
    assert.ok(capabilities.features.html && capabilities.features.markdown, "formats registered");
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
