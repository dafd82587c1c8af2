/**
 * The one feature table of `tolk serve`: `features` in GET /v1/capabilities and the refusal of a
 * request that asks for a feature this build does not have both come from {@link FEATURE_TABLE},
 * so they cannot disagree.
 *
 * A flag is derived from what the service registered ({@link RegisteredFeatures}): a format is on
 * when a format module is registered for it, glossary and memory when their stores are. Turning
 * a feature on is registering it, never editing a flag.
 */
import { z } from "zod";
import type { TranslateRequest, TranslationFormat } from "./translation.ts";

/** What the running service has registered; every optional feature is derived from it. */
export interface RegisteredFeatures {
  /** Formats with a registered format module (`text` at least). */
  formats: readonly TranslationFormat[];
  /** True when a glossary store is registered. */
  glossary: boolean;
  /** True when a translation-memory store is registered. */
  memory: boolean;
}

/** The plain-text build: no markup format, no glossary, no memory. */
export const PLAIN_TEXT_FEATURES: RegisteredFeatures = {
  formats: ["text"],
  glossary: false,
  memory: false,
};

/** How a request asks for a feature: the field to name in the refusal. */
export interface FeatureRequest {
  /** The request field, in the errors' field-path style. */
  param: string;
  /** True when `request` asks for the feature. */
  asks(request: TranslateRequest): boolean;
  /** The refusal's message when the feature is off. */
  refusal: string;
}

/** One row of the table. */
export interface FeatureRow {
  description: string;
  /** Whether the feature works end to end, from what is registered. */
  on(registered: RegisteredFeatures): boolean;
  /** How a translate request asks for it; absent for features nothing in a request asks for. */
  request?: FeatureRequest;
}

const always = () => true;
const never = () => false;

function formatRow(format: "html" | "markdown"): FeatureRow {
  return {
    description: `format "${format}" in translate requests`,
    on: (registered) => registered.formats.includes(format),
    request: {
      param: "format",
      asks: (request) => request.format === format,
      refusal:
        `format "${format}" is not supported by this service yet (features.${format} is false in GET /v1/capabilities); send plain text`,
    },
  };
}

/** Every feature flag of capabilities, in the contract's order. */
export const FEATURE_NAMES = [
  "detect",
  "batch",
  "stream",
  "websocket",
  "html",
  "markdown",
  "glossary",
  "memory",
  "offline",
] as const;

/** A feature name. */
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** What each flag means, when it is on, and how a request asks for it. */
export const FEATURE_TABLE: Record<FeatureName, FeatureRow> = {
  detect: { description: "POST /v1/detect", on: always },
  batch: { description: "several texts per request", on: always },
  stream: { description: "streamed translation results", on: never },
  websocket: { description: "GET /v1/ws/translate", on: always },
  html: formatRow("html"),
  markdown: formatRow("markdown"),
  glossary: {
    description: "options.glossary_id in translate requests",
    on: (registered) => registered.glossary,
    request: {
      param: "options.glossary_id",
      asks: (request) => request.options?.glossary_id != null,
      refusal: "glossaries are not supported by this service yet (features.glossary is false)",
    },
  },
  memory: {
    description: "options.memory in translate requests",
    on: (registered) => registered.memory,
    request: {
      param: "options.memory",
      asks: (request) => request.options?.memory === true,
      refusal: "translation memory is not supported by this service yet (features.memory is false)",
    },
  },
  // The built-in engine translates with no network at all.
  offline: { description: "translation with no network", on: always },
};

/** Feature flags: true only when the feature works end to end. */
export const FeaturesSchema = z.strictObject(
  Object.fromEntries(
    FEATURE_NAMES.map((name) => [name, z.boolean().describe(FEATURE_TABLE[name].description)]),
  ) as Record<FeatureName, z.ZodBoolean>,
).describe("Feature flags: true only when the feature works end to end.");

/** The flags of capabilities. */
export type Features = z.infer<typeof FeaturesSchema>;

/** The flags of a service that registered `registered`. */
export function featureFlags(registered: RegisteredFeatures): Features {
  return Object.fromEntries(
    FEATURE_NAMES.map((name) => [name, FEATURE_TABLE[name].on(registered)]),
  ) as Features;
}

/** A request asking for a feature whose flag is off. */
export interface FeatureRefusal {
  feature: FeatureName;
  param: string;
  message: string;
}

/** The first feature `request` asks for while its flag is off, or null when none. */
export function refusedFeature(request: TranslateRequest, flags: Features): FeatureRefusal | null {
  for (const name of FEATURE_NAMES) {
    const row = FEATURE_TABLE[name];
    if (flags[name] || !row.request?.asks(request)) continue;
    return { feature: name, param: row.request.param, message: row.request.refusal };
  }
  return null;
}
