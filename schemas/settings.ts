/**
 * The settings file of `tolk serve` (DECISIONS.md "Settings file"), as a zod schema.
 *
 * Objects are loose so unknown keys survive a rewrite; missing keys take the defaults.
 */
import { z } from "zod";
import { isLoopbackUrl, LOOPBACK_RULE } from "../net/loopback.ts";
import { ENGINE_IDS, EngineIdSchema } from "./languages.ts";

/** The port an address names, as written (`null` when none); `new URL` refuses 99999 unnamed. */
function writtenPort(url: string): number | null {
  const port = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[^\]]*\]|[^/:?#]*):(\d+)(?:[/?#]|$)/i.exec(url)?.[1];
  return port === undefined ? null : Number(port);
}

// The specific slips first, each stopping the checks after it, so the message names the slip
// rather than the general loopback rule (a space or a bad port made "must be a loopback URL").
const loopbackUrl = z.string().refine(
  (url) => !/\s/.test(url),
  { message: "must not hold a space (a server's root has none)", abort: true },
).refine(
  (url) => {
    const port = writtenPort(url);
    return port === null || (port >= 1 && port <= 65535);
  },
  { message: "must name a port from 1 to 65535 (or none, for the scheme's own)", abort: true },
).refine(
  isLoopbackUrl,
  `must be a loopback http URL (${LOOPBACK_RULE}): no request is forwarded elsewhere`,
).refine(
  (url) => !/^[a-z]+:\/\/[^/]*@/i.test(url),
  "must not hold a user name or password (a key goes in api_key)",
).refine(
  // The engines append their paths to it (`${root}/api/tags`): they would land in the query.
  (url) => !/[?#]/.test(url),
  "must not hold a query or a fragment (? or #): it is the server's root, paths are added to it",
);

/**
 * A duration as Go's `time.ParseDuration` reads it, which is how Ollama reads a `keep_alive`
 * string: refused otherwise with HTTP 400 on every request ("-1" is "missing unit in duration";
 * Go has no unit for days).
 */
const GO_DURATION = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;

/** Longest model name kept: ids on the hub and in runners' lists are far shorter. */
export const MAX_MODEL_NAME_LENGTH = 256;

/**
 * A model name as a server lists it, trimmed (a pasted name's line break goes): no control
 * character inside — a newline would land in every request body and log line, where no server
 * has such a model — and at most {@link MAX_MODEL_NAME_LENGTH} characters. The one rule of every
 * engine's `model`, read from the file or saved by the settings page.
 */
const modelName = z.string().trim()
  .refine((name) => !/\p{Cc}/u.test(name), {
    message: "must not hold a control character (a line break or tab inside the name)",
    abort: true,
  })
  .refine((name) => name.length <= MAX_MODEL_NAME_LENGTH, {
    message: `must be at most ${MAX_MODEL_NAME_LENGTH} characters (no model name is longer)`,
  });

/** The built-in model used when the settings name none. */
export const DEFAULT_LOCAL_MODEL = "Xenova/nllb-200-distilled-600M";

/** Settings of the local API. */
export const ApiSettingsSchema = z.looseObject({
  enabled: z.boolean().default(false).describe("Whether the token-protected endpoints answer."),
  token: z.string().min(32).nullable().default(null)
    .describe("The API token (base64url, 32 random bytes); null when none was ever made."),
});

const milliseconds = (min: number, max: number, fallback: number) =>
  z.number().int().min(min).max(max).default(fallback);

/** Settings of one LLM backend (engine-one, engine-two, compatible-api). */
function remoteEngineSettings(defaultBaseUrl: string | null) {
  return z.looseObject({
    base_url: loopbackUrl.nullable().default(defaultBaseUrl)
      .describe("Root of the server (a trailing /v1 is read as the root); loopback only."),
    model: modelName
      .refine((name) => name !== "", {
        message: "an empty model name: write null to use the first chat model the server lists",
      })
      .nullable().default(null)
      .describe(
        "Default model (at most 256 characters, no control character); null picks the first " +
          "chat model the server lists.",
      ),
    request_timeout_ms: milliseconds(1_000, 3_600_000, 120_000)
      .describe("Longest wait for one translation request, in ms (1000..3600000, default 120000)."),
    probe_timeout_ms: milliseconds(100, 60_000, 1_500)
      .describe(
        "Longest wait for the readiness probe (model list), in ms (100..60000, default 1500).",
      ),
    status_cache_ms: milliseconds(0, 600_000, 3_000)
      .describe("How long a readiness probe is reused, in ms (0..600000, default 3000)."),
    temperature: z.number().min(0).max(2).default(0)
      .describe("Sampling temperature of translation requests (0..2, default 0)."),
    max_batch_items: z.number().int().min(1).max(128).default(16)
      .describe("Most texts sent in one request (1..128, default 16); larger jobs are split."),
  });
}

/** A chat-completions server's context size, which the engine packs batches against. */
const contextTokens = z.number().int().min(256).max(1_048_576).default(4096)
  .describe(
    "The served model's context in tokens (256..1048576, default 4096); batches fit in it.",
  );

/**
 * What compatibility requests (DeepL, LibreTranslate, DeepLX) do where their shapes have no field.
 */
export const CompatSettingsSchema = z.looseObject({
  sensitive: z.boolean().default(false)
    .describe("Treat every compat request as sensitive: no history, no memory writes."),
  memory: z.boolean().default(false)
    .describe("Compat requests read and write translation memory."),
});

/** Settings of the translation history (DECISIONS.md, "History"). */
export const HistorySettingsSchema = z.looseObject({
  enabled: z.boolean().default(true)
    .describe(
      "Whether translations are kept in the history (sensitive ones never are). Off: nothing " +
        "new is kept; rows already there stay until deleted (`tolk history clear`).",
    ),
});

/** Settings of the settings page. */
export const SettingsPageSettingsSchema = z.looseObject({
  link_key: z.string().min(32).nullable().default(null)
    .describe(
      "Key (base64url, 32 random bytes) with which `tolk settings` proves it may ask the " +
        "running service for a one-time link; made on first use, never sent over the wire.",
    ),
});

/** The whole settings file. */
export const SettingsSchema = z.looseObject({
  api: ApiSettingsSchema.prefault({}),
  compat: CompatSettingsSchema.prefault({}),
  history: HistorySettingsSchema.prefault({}),
  settings_page: SettingsPageSettingsSchema.prefault({}),
  engines: z.looseObject({
    order: z.array(EngineIdSchema).default([...ENGINE_IDS])
      .describe("Order in which the auto pipeline tries engines."),
    "local-llm": z.looseObject({
      model: modelName.refine((name) => name !== "", "must name a model, <org>/<name>")
        .default(DEFAULT_LOCAL_MODEL)
        .describe("Default built-in model, <org>/<name> under the models dir."),
    }).prefault({}),
    "engine-one": remoteEngineSettings("http://127.0.0.1:11434").extend({
      num_ctx: z.number().int().min(256).max(1_048_576).default(4096)
        .describe(
          "Context size asked of the runner (options.num_ctx; 256..1048576, default 4096).",
        ),
      keep_alive: z.union([
        z.string().regex(GO_DURATION, {
          message: "must be seconds as a number (-1: keep it loaded) or a duration as Ollama " +
            'reads it ("5m", "1h30m", "-1m"; no days)',
        }),
        z.number(),
      ]).default("5m")
        .describe('How long the runner keeps the model loaded after a request (default "5m").'),
    }).prefault({}),
    "engine-two": remoteEngineSettings("http://127.0.0.1:1234").extend({
      context_tokens: contextTokens,
    }).prefault({}),
    "compatible-api": remoteEngineSettings(null).extend({
      api_key: z.string().nullable().default(null).describe("Bearer key sent to the server."),
      context_tokens: contextTokens,
    }).prefault({}),
  }).prefault({}),
});

/** Parsed settings with every default filled in. */
export type Settings = z.infer<typeof SettingsSchema>;
