import assert from "node:assert/strict";
import {
  FEATURE_NAMES,
  featureFlags,
  FeaturesSchema,
  PLAIN_TEXT_FEATURES,
  refusedFeature,
  type RegisteredFeatures,
} from "../../schemas/features.ts";
import { TranslateRequestSchema } from "../../schemas/translation.ts";

const FLAG_CASES: { name: string; registered: RegisteredFeatures; on: string[] }[] = [
  {
    name: "plain text only",
    registered: PLAIN_TEXT_FEATURES,
    on: ["detect", "batch", "websocket", "offline"],
  },
  {
    name: "html registered",
    registered: { ...PLAIN_TEXT_FEATURES, formats: ["text", "html"] },
    on: ["detect", "batch", "websocket", "html", "offline"],
  },
  {
    name: "both markup formats, glossary and memory stores",
    registered: { formats: ["text", "html", "markdown"], glossary: true, memory: true },
    on: ["detect", "batch", "websocket", "html", "markdown", "glossary", "memory", "offline"],
  },
];

Deno.test("featureFlags derives every flag from what is registered", () => {
  for (const row of FLAG_CASES) {
    const flags = FeaturesSchema.parse(featureFlags(row.registered));
    const on = FEATURE_NAMES.filter((name) => flags[name]);
    assert.deepEqual(on, row.on, row.name);
  }
});

const REFUSAL_CASES: { name: string; request: unknown; param: string | null }[] = [
  { name: "plain text", request: { target: "de", texts: ["a"] }, param: null },
  { name: "format text", request: { target: "de", texts: ["a"], format: "text" }, param: null },
  { name: "format html", request: { target: "de", texts: ["a"], format: "html" }, param: "format" },
  {
    name: "format markdown",
    request: { target: "de", texts: ["a"], format: "markdown" },
    param: "format",
  },
  {
    name: "a glossary id",
    request: { target: "de", texts: ["a"], options: { glossary_id: "g" } },
    param: "options.glossary_id",
  },
  {
    name: "a null glossary id",
    request: { target: "de", texts: ["a"], options: { glossary_id: null } },
    param: null,
  },
  {
    name: "memory true",
    request: { target: "de", texts: ["a"], options: { memory: true } },
    param: "options.memory",
  },
  {
    name: "memory false",
    request: { target: "de", texts: ["a"], options: { memory: false } },
    param: null,
  },
];

Deno.test("refusedFeature names the field of a feature that is off, and nothing else", () => {
  const off = featureFlags(PLAIN_TEXT_FEATURES);
  const on = featureFlags({ formats: ["text", "html", "markdown"], glossary: true, memory: true });
  for (const row of REFUSAL_CASES) {
    const request = TranslateRequestSchema.parse(row.request);
    assert.equal(refusedFeature(request, off)?.param ?? null, row.param, row.name);
    assert.equal(refusedFeature(request, on), null, `${row.name} with every feature on`);
  }
});
