/**
 * What the compatibility routes share: a sub-app that renders errors in its client's shape,
 * reading form or JSON bodies, and the one token rule of these routes.
 */
import { isUtf8 } from "node:buffer";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { CompatPolicy, RefusalWords } from "../../../compat/compat_request.ts";
import type { ContractError } from "../../../errors/contract_error.ts";
import { logUnexpected } from "../../../errors/log_unexpected.ts";
import {
  type ErrorCode,
  JSON_BODY_ERRORS,
  renderTranslationError,
  serviceError,
} from "../../../errors/translation_errors.ts";
import { requireIdentityCoding } from "../../../middleware/content_coding.ts";
import { tokensEqual } from "../../../middleware/token_auth.ts";
import { FORM_MEDIA_TYPES } from "../../../schemas/api_route.ts";
import type { RequestIdVariables } from "../../../middleware/request_id.ts";
import type { TranslationDeps } from "../../../translation/run_translation.ts";
import { dataBodyLimit, GLOSSARY_BODY_MIB } from "../data_body_limit.ts";

/** Largest body a compat route reads (as POST /v1/translate). */
const MAX_COMPAT_BODY_BYTES = 1024 * 1024;

/** Everything a compatibility route needs. */
export interface CompatRouteDeps {
  translation: TranslationDeps;
  /** The token in force now, or null while the API is disabled. */
  currentToken: () => string | null;
  /** What a request is told while the API is disabled (settings/link_hint.ts). */
  disabledMessage: string;
  /** The settings' compat policy, read per request. */
  policy: () => CompatPolicy;
  /** Where unexpected errors are logged (never request contents). */
  log: (line: string) => void;
  /**
   * The service's refusal while it shuts down, run inside each sub-app so that its client reads
   * the 503 in its own shape (app/translation_app.ts leaves these paths to it).
   */
  refuseWhileStopping: MiddlewareHandler;
}

/** A client family's rendering of a tolk error. */
export type ClientErrorRenderer = (
  error: ContractError<ErrorCode>,
) => { status: number; body: unknown };

/** A compat sub-app. */
export type CompatHono = Hono<{ Variables: RequestIdVariables }>;

/** What {@link compatApp} needs besides the routes. */
export interface CompatAppOptions extends Pick<CompatRouteDeps, "log" | "refuseWhileStopping"> {
  /**
   * Paths whose bodies are data, held to the limit of tolk's own glossary routes (DeepL's
   * glossaries: a glossary tolk takes on /v1/glossaries is taken here too) instead of a
   * translation request's 1 MiB.
   */
  dataPaths?: RegExp;
}

/**
 * A sub-app whose errors (bad bodies, limits, engines, anything unexpected) are rendered in the
 * client's own shape by `render`: `addRoutes` adds the client's routes, and every other path
 * answers `not_found` in that shape too.
 */
export function compatApp(
  render: ClientErrorRenderer,
  { log, refuseWhileStopping, dataPaths }: CompatAppOptions,
  addRoutes: (app: CompatHono) => void,
): CompatHono {
  const app: CompatHono = new Hono();
  app.use(refuseWhileStopping);
  const textLimit = bodyLimit({ maxSize: MAX_COMPAT_BODY_BYTES });
  const dataLimit = dataBodyLimit(GLOSSARY_BODY_MIB);
  app.use((c, next) => (dataPaths?.test(c.req.path) ? dataLimit : textLimit)(c, next));
  app.onError((thrown, c) => {
    const rendered = renderTranslationError(thrown);
    if (rendered.unexpected) logUnexpected(log, c.get("requestId"), thrown);
    const { status, body } = render(rendered.error);
    return c.json(body, status as 400, rendered.headers);
  });
  addRoutes(app);
  return app.all("*", (c) => {
    // Tools build their URLs as `<base>/translate` from a base URL the user pasted, often with
    // its final slash. LibreTranslate's Flask redirects such a path with its slashes merged (308:
    // the client sends the same method and body again); so does tolk, for every compat family.
    const merged = c.req.path.replace(/\/{2,}/g, "/");
    if (merged !== c.req.path) {
      const url = new URL(c.req.url);
      return c.redirect(`${merged}${url.search}`, 308);
    }
    throw serviceError("not_found", "no such endpoint");
  });
}

const AUTHORIZATION = /^(?:Bearer|DeepL-Auth-Key)\s+(\S+)\s*$/i;

/**
 * The token a compat request presents, wherever its client puts it: the path
 * (`/v1/compat/t/<token>/…`), `X-Svc-Token`, `Authorization: Bearer` or `DeepL-Auth-Key`,
 * `?token=` (DeepLX) or the body's `api_key` (LibreTranslate).
 */
function presentedCompatToken(c: Context, body?: unknown): string | undefined {
  const apiKey = (body as { api_key?: unknown } | undefined)?.api_key;
  return c.req.param("token") || c.req.header("x-svc-token") ||
    c.req.header("authorization")?.match(AUTHORIZATION)?.[1] || c.req.query("token") ||
    (typeof apiKey === "string" && apiKey !== "" ? apiKey : undefined);
}

/**
 * Whether `presented` is the token, or the token in DeepL's Free key form (`<key>:fx`): clients
 * offering "DeepL Free" expect the suffix, which names a plan and is no part of the secret.
 */
function isToken(presented: string, token: string): boolean {
  if (tokensEqual(presented, token)) return true;
  return presented.endsWith(":fx") && tokensEqual(presented.slice(0, -3), token);
}

/**
 * Requires the token in force, looked for wherever the client puts it (the body's `api_key` when
 * `body` is given).
 *
 * @throws {TranslationServiceError} `unauthorized` (each family renders its own status), or
 * the `missing` error as `invalid_request` when `missingIsInvalid`.
 */
export function requireCompatToken(
  c: Context,
  access: Pick<CompatRouteDeps, "currentToken" | "disabledMessage">,
  words: RefusalWords,
  body?: unknown,
): void {
  const presented = presentedCompatToken(c, body);
  const currentToken = access.currentToken();
  if (presented !== undefined && currentToken !== null && isToken(presented, currentToken)) return;
  if (currentToken === null) {
    throw serviceError("unauthorized", access.disabledMessage);
  }
  if (presented === undefined) {
    throw words.missingIsInvalid
      ? serviceError("invalid_request", words.missing, { param: "api_key" })
      : serviceError("unauthorized", words.missing);
  }
  throw serviceError("unauthorized", words.wrong);
}

/** How a client family's bodies are read beyond their declared type. */
export interface CompatBodyOptions {
  /**
   * A body that starts with `{` is JSON whatever its Content-Type: DeepLX's server binds the body
   * as JSON without reading the type, so its clients send JSON as `text/plain` (fetch with a
   * string), as a form (curl -d) or with no type at all.
   */
  jsonWhateverType?: boolean;
  /**
   * LibreTranslate's reading of a body that is not JSON (Flask's `request.values`): the query
   * string's fields too, ahead of the form's as in Flask (deep-translator sends an empty POST with
   * every field, the key included, in the query string); and a form's line breaks as LF, as
   * LibreTranslate normalises them: a browser's `FormData` sends every "\n" as "\r\n", which
   * would come back in the translation and count twice against the limit its front end checked.
   */
  libreValues?: boolean;
}

/**
 * Reads a form-encoded, multipart or JSON body into plain fields (a repeated form field becomes
 * an array, a JSON field that is null is left out). A bodiless request reads as `{}`.
 *
 * @throws {TranslationServiceError} `invalid_request` for a compressed body, malformed JSON, a
 * body (or a form's escaped bytes) that is not UTF-8, a file, or another type.
 */
export async function readCompatBody(
  c: Context,
  options: CompatBodyOptions = {},
): Promise<Record<string, unknown>> {
  requireIdentityCoding(c.req.header("content-encoding"), JSON_BODY_ERRORS.compressed);
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const declaredJson = type === "application/json" || type.endsWith("+json");
  if (declaredJson || (options.jsonWhateverType && /^\s*\{/.test(await c.req.text()))) {
    // Refused as on /v1/translate: decoding would put U+FFFD in place of each bad byte and
    // translate (and keep in the history) the changed text.
    if (!isUtf8(await bodyBytes(c))) throw JSON_BODY_ERRORS.notUtf8();
    const body = await c.req.json().catch(() => {
      throw serviceError("invalid_request", "malformed JSON in request body");
    });
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw serviceError("invalid_request", "the JSON body must be an object");
    }
    // A null field is an absent one, as these clients' servers read it (DeepLX's Go binding gives
    // the zero value, LibreTranslate's `.get` None): `source_lang: null` detects.
    return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
  }
  if ((FORM_MEDIA_TYPES as readonly string[]).includes(type)) {
    const form = await c.req.parseBody({ all: true });
    for (const value of Object.values(form).flat()) {
      if (typeof value !== "string") {
        throw serviceError("invalid_request", "files are not accepted here; send text fields");
      }
    }
    // Only text fields: every byte of the body (boundaries and part headers are ASCII) is text.
    if (!isUtf8Form(await bodyBytes(c), type)) throw JSON_BODY_ERRORS.notUtf8();
    return options.libreValues ? libreValues(c, form as Record<string, string | string[]>) : form;
  }
  if (type === "" && (await c.req.text()) === "") {
    return options.libreValues ? libreValues(c, {}) : {};
  }
  throw serviceError(
    "invalid_request",
    "the body must be JSON or form-encoded (application/x-www-form-urlencoded)",
  );
}

/**
 * A form's fields over the query string's, line breaks as LF ({@link CompatBodyOptions}). A
 * repeated field is its first value, as Flask's `request.values.get` reads it: LibreTranslate
 * takes a list of texts only as a JSON array, and a client that repeats `q` in a form gets one
 * translation, a string, from it (an array would break the client that expects that string).
 */
function libreValues(
  c: Context,
  form: Record<string, string | string[]>,
): Record<string, string> {
  const first = (value: string | string[]) => Array.isArray(value) ? value[0] : value;
  const fields = { ...form, ...c.req.query() };
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, first(value).replace(/\r\n?/g, "\n")]),
  );
}

/** The body's bytes (Hono keeps them: the JSON or the form is then parsed from them). */
async function bodyBytes(c: Context): Promise<Uint8Array> {
  return new Uint8Array(await c.req.arrayBuffer());
}

/**
 * Whether a form's text is UTF-8: its bytes, and in a URL-encoded form also the bytes its `%XX`
 * escapes stand for (`text=caf%E9` is ISO-8859-1, which `URLSearchParams` reads as U+FFFD).
 */
function isUtf8Form(bytes: Uint8Array, type: string): boolean {
  if (!isUtf8(bytes)) return false;
  if (type !== "application/x-www-form-urlencoded") return true;
  // A `%` that starts no escape is read literally by form parsing; decodeURIComponent would throw.
  const escaped = new TextDecoder().decode(bytes).replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
  try {
    decodeURIComponent(escaped);
    return true;
  } catch {
    return false;
  }
}
