import assert from "node:assert/strict";
import { FEATURE_NAMES, FEATURE_TABLE, type FeatureName } from "../../../schemas/features.ts";
import {
  CapabilitiesResponseSchema,
  TranslateResponseSchema,
} from "../../../schemas/translation.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { dataRequest } from "../../support/data_requests.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService,
} from "../../support/translation_service.ts";

async function createGlossary(service: TestService): Promise<string> {
  const response = await dataRequest(service, "POST", "/v1/glossaries", {
    name: "g",
    dictionaries: [{
      source_lang: "en",
      target_lang: "de",
      entries: "morning\tMorgen\n",
      entries_format: "tsv",
    }],
  });
  return (await response.json()).glossary_id;
}

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
      const body: Record<string, unknown> = { target: "de", texts: ["Good morning"], ...asking };
      if (name === "glossary" && capabilities.features.glossary) {
        body.options = { glossary_id: await createGlossary(service) };
      }
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

Deno.test("features.glossary and features.memory are true with the data stores, and refused without them", async () => {
  await withTranslationService(async (service) => {
    const { features } = await expectBody(
      await fetch(`${service.url}/v1/capabilities`),
      200,
      CapabilitiesResponseSchema,
    );
    assert.equal(features.glossary, true);
    assert.equal(features.memory, true);
  });
  await withTranslationService(async (service) => {
    const { features } = await expectBody(
      await fetch(`${service.url}/v1/capabilities`),
      200,
      CapabilitiesResponseSchema,
    );
    assert.equal(features.glossary, false);
    assert.equal(features.memory, false);
    for (const name of ["glossary", "memory"] as const) {
      const body = { target: "de", texts: ["Good morning"], ...ASKING[name] };
      const refused = await expectError(
        await postTranslate(service, body),
        400,
        "invalid_request",
        FEATURE_TABLE[name].request!.param,
      );
      assert.match(refused.error.message, new RegExp(`features\\.${name} is false`));
    }
  }, { withoutStores: true });
});
