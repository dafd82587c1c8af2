/**
 * The settings page's own endpoints (`/settings/...`, outside the API): what `tolk settings`
 * sends for a link, what the page reads and what it may change.
 */
import { z } from "zod";
import { EngineIdSchema } from "./languages.ts";

/** `POST /settings/link`: a link request signed with the settings file's link key. */
export const LinkRequestSchema = z.strictObject({
  issued_at: z.int().min(0).describe("Epoch milliseconds when the command made the request."),
  nonce: z.string().min(16).max(64).describe("Random, base64url; accepted once."),
  proof: z.string().min(1).max(128).describe("HMAC-SHA256 of issued_at and nonce, base64url."),
});

/** The answer to a link request. */
export const LinkResponseSchema = z.strictObject({
  // base64url, as the service makes it: `tolk settings` prints it, and whatever answers on the
  // port (another program squatting there) must not get control characters onto the terminal.
  code: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/).describe("One-time code for /settings?code=…"),
  expires_at: z.int().describe("Epoch seconds after which the code is refused."),
});

/** One engine as the page shows it. */
export const PageEngineSchema = z.strictObject({
  id: EngineIdSchema,
  name: z.string().describe("Human name of the engine."),
  ready: z.boolean().describe("True when a translation would be attempted right now."),
  hint: z.string().nullable().describe(
    "When not ready and the user can fix it: why, in one line (as in 503 messages); else null.",
  ),
  model: z.string().nullable().describe("Configured default model; null lets the engine pick."),
  models: z.array(z.string()).nullable().describe("Models the engine has; null when unknown."),
  base_url: z.string().nullable().describe("Loopback root of the server; null for the built-in."),
  has_api_key: z.boolean().describe("True when an API key is configured (never shown)."),
});

/** A model folder in the models directory. */
export const LocalModelSchema = z.strictObject({
  id: z.string().describe("<org>/<name>"),
  valid: z.boolean().describe("True when the folder holds everything a translation needs."),
  size_bytes: z.int().min(0),
  problems: z.array(z.string()).describe("Why the folder is not valid."),
});

/** `GET /settings/api/state`: everything the page shows, except the token. */
export const PageStateSchema = z.strictObject({
  api: z.strictObject({
    enabled: z.boolean().describe("Whether the token-protected endpoints answer."),
    has_token: z.boolean().describe("Whether a token exists (Reveal shows it)."),
  }),
  history: z.strictObject({
    enabled: z.boolean().describe("Whether translations are kept in the history."),
  }),
  engines: z.array(PageEngineSchema).describe("Every engine, in the auto order."),
  models_dir: z.string().describe("Where local models are looked for."),
  local_models: z.array(LocalModelSchema),
  base_url: z.string().describe("The service's address as this page reached it."),
  compat_base_urls: z.array(z.strictObject({ name: z.string(), base_url: z.string() }))
    .describe("Base URLs of the compatibility routes this build serves."),
  settings_file_problem: z.string().nullable().describe(
    "Why the settings file cannot be used (broken by hand), naming it; the service keeps its " +
      "last good settings meanwhile. Null when the file is fine.",
  ),
});

/** `POST /settings/api/api`. */
export const ApiSwitchSchema = z.strictObject({
  enabled: z.boolean().describe("Turn the API on (a token is made if none exists) or off."),
});

/** `POST /settings/api/history`. */
export const HistorySwitchSchema = z.strictObject({
  enabled: z.boolean().describe(
    "Keep translations in the history, or stop (rows already there stay until deleted).",
  ),
});

/** The token, only ever in answer to an explicit Reveal or Rotate. */
export const TokenRevealSchema = z.strictObject({
  token: z.string().nullable().describe("The API token; null when none exists."),
});

const remoteEngineChange = z.strictObject({
  base_url: z.string().nullable().optional().describe("Loopback root of the server."),
  // Checked where the file's names are (schemas/settings.ts): one rule, refused with its field.
  model: z.string().nullable().optional().describe(
    "Default model, trimmed (at most 256 characters, no control character); null or empty " +
      "lets the engine pick.",
  ),
});

/** `POST /settings/api/engines`: a change of order and/or engine settings. */
export const EngineChangeSchema = z.strictObject({
  order: z.array(EngineIdSchema).optional().describe("The auto order, every engine once."),
  engines: z.strictObject({
    "local-llm": z.strictObject({
      model: z.string().min(1).optional().describe("Default built-in model, <org>/<name>."),
    }).optional(),
    "engine-one": remoteEngineChange.optional(),
    "engine-two": remoteEngineChange.optional(),
    "compatible-api": remoteEngineChange.extend({
      // Write-only: the page sends a new key or null to clear it; no answer carries it back
      // (the state says has_api_key), as a key shown once on a page is a key in its history.
      api_key: z.string().refine(
        // What an Authorization header carries as written (engines/chat/backend_http.ts): a
        // pasted key with another character is refused here, next to its field, not at each
        // request. The message never quotes the key.
        (key) => /^[\x20-\x7E\t]*$/.test(key.trim()),
        "must be printable ASCII (an HTTP header cannot carry another character)",
      ).nullable().optional().describe(
        "New bearer key sent to the server, trimmed; null or empty clears it. Never read back.",
      ),
    }).optional(),
  }).optional(),
});

/** Types of the page's bodies. */
export type PageState = z.infer<typeof PageStateSchema>;
/** A validated engine change. */
export type EngineChange = z.infer<typeof EngineChangeSchema>;
