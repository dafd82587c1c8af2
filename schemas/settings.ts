/**
 * The settings file of `tolk serve` (DECISIONS.md "Settings file"), as a zod schema.
 *
 * Objects are loose so unknown keys survive a rewrite; missing keys take the defaults.
 */
import { z } from "zod";
import { ENGINE_IDS, EngineIdSchema } from "./languages.ts";

const LOOPBACK_HOSTNAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** True when `url` is an http(s) URL on the loopback interface. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") &&
      (LOOPBACK_HOSTNAMES.has(parsed.hostname) || /^127(\.\d{1,3}){3}$/.test(parsed.hostname));
  } catch {
    return false;
  }
}

const loopbackUrl = z.string().refine(
  isLoopbackUrl,
  "must be a loopback http URL (127.0.0.1, localhost or [::1]): no request is forwarded elsewhere",
);

/** The built-in model used when the settings name none. */
export const DEFAULT_LOCAL_MODEL = "Xenova/nllb-200-distilled-600M";

/** Settings of the local API. */
export const ApiSettingsSchema = z.looseObject({
  enabled: z.boolean().default(false).describe("Whether the token-protected endpoints answer."),
  token: z.string().min(32).nullable().default(null)
    .describe("The API token (base64url, 32 random bytes); null when none was ever made."),
});

/** Settings of one chat-completions style backend. */
function remoteEngineSettings(defaultBaseUrl: string | null) {
  return z.looseObject({
    base_url: loopbackUrl.nullable().default(defaultBaseUrl)
      .describe("Root of the server (before /v1); loopback only."),
    model: z.string().nullable().default(null).describe("Default model; null picks the first."),
  });
}

/** The whole settings file. */
export const SettingsSchema = z.looseObject({
  api: ApiSettingsSchema.prefault({}),
  engines: z.looseObject({
    order: z.array(EngineIdSchema).default([...ENGINE_IDS])
      .describe("Order in which the auto pipeline tries engines."),
    "local-llm": z.looseObject({
      model: z.string().min(1).default(DEFAULT_LOCAL_MODEL)
        .describe("Default built-in model, <org>/<name> under the models dir."),
    }).prefault({}),
    "engine-one": remoteEngineSettings("http://127.0.0.1:11434").prefault({}),
    "engine-two": remoteEngineSettings("http://127.0.0.1:1234").prefault({}),
    "compatible-api": remoteEngineSettings(null).extend({
      api_key: z.string().nullable().default(null).describe("Bearer key sent to the server."),
    }).prefault({}),
  }).prefault({}),
});

/** Parsed settings with every default filled in. */
export type Settings = z.infer<typeof SettingsSchema>;
