/**
 * Route-table entries of the compatibility routes (DeepL, LibreTranslate, DeepLX), from which
 * `GET /v1/openapi.json` documents them. Their errors come in their clients' shapes and statuses.
 */
import { z } from "zod";
import { type ApiRoute, type ApiSuccess, named, type TokenPlace } from "./api_route.ts";
import { DEEPL_GLOSSARY_ROUTES, DEEPL_ROUTE, TAG } from "./deepl_glossary_routes.ts";
import {
  DeepLLanguagesRequestSchema,
  DeepLLanguagesResponseSchema,
  DeepLTranslateRequestSchema,
  DeepLTranslateResponseSchema,
  DeepLUsageResponseSchema,
} from "./compat/deepl.ts";
import {
  DEEPLX_BUSY_STATUS,
  DEEPLX_ERROR_STATUSES,
  DeepLXErrorSchema,
  DeepLXRequestSchema,
  DeepLXResponseSchema,
} from "./compat/deeplx.ts";
import {
  LIBRE_BUSY_STATUS,
  LIBRE_ERROR_STATUSES,
  LibreDetectRequestSchema,
  LibreDetectResponseSchema,
  LibreErrorSchema,
  LibreFrontendSettingsSchema,
  LibreLanguagesResponseSchema,
  LibreTranslateRequestSchema,
  LibreTranslateResponseSchema,
} from "./compat/libretranslate.ts";

const TRANSLATE_ERRORS = [
  "invalid_request",
  "payload_too_large",
  "batch_too_large",
  "unsupported_language",
  "engine_unavailable",
];

/** DeepL's POST /v2/translate body (JSON or form) and answer, on DeepL's route and DeepLX's. */
const DEEPL_TRANSLATE_BODY = named("DeepLTranslateRequest", DeepLTranslateRequestSchema);
const DEEPL_TRANSLATE_ANSWER: Record<number, ApiSuccess> = {
  200: {
    description: "One translation per text.",
    body: named("DeepLTranslateResponse", DeepLTranslateResponseSchema),
    headers: ["Svc-Glossary-Report"],
  },
};

const deeplUsage = (method: "get" | "post"): ApiRoute => ({
  ...DEEPL_ROUTE,
  method,
  path: "/v1/compat/deepl/v2/usage",
  summary: "DeepL: characters translated",
  responses: {
    200: {
      description: "Characters billed so far; no quota.",
      body: named("DeepLUsageResponse", DeepLUsageResponseSchema),
    },
  },
  errors: [],
  examples: [{ status: 200 }],
});

/** DeepL's /v2/languages: GET, or POST with `type` in the body or the query, as DeepL takes it. */
const deeplLanguages = (method: "get" | "post"): ApiRoute => ({
  ...DEEPL_ROUTE,
  method,
  path: "/v1/compat/deepl/v2/languages",
  summary: "DeepL: source or target languages",
  request: method === "get" ? { query: DeepLLanguagesRequestSchema } : {
    query: DeepLLanguagesRequestSchema,
    body: named("DeepLLanguagesRequest", DeepLLanguagesRequestSchema),
    formBody: named("DeepLLanguagesRequest", DeepLLanguagesRequestSchema),
  },
  responses: {
    200: {
      description: "Languages in DeepL's spelling.",
      body: named("DeepLLanguagesResponse", DeepLLanguagesResponseSchema),
    },
  },
  errors: ["invalid_request"],
  examples: method === "get"
    ? [{ status: 200 }, { query: { type: "target" }, status: 200 }]
    : [{ status: 200 }, { body: { type: "target" }, status: 200 }],
});

const DEEPL_ROUTES: readonly ApiRoute[] = [
  {
    ...DEEPL_ROUTE,
    method: "post",
    path: "/v1/compat/deepl/v2/translate",
    summary: "DeepL: translate texts",
    description: "DeepL's POST /v2/translate, form-encoded (repeated `text`) or JSON, on tolk's " +
      "pipeline. `tag_handling` html|xml is tolk's format of that name, with `ignore_tags`, " +
      "`splitting_tags`, `non_splitting_tags` and `outline_detection` as DeepL reads them; " +
      "`formality` is a tone hint, `custom_instructions` and `context` reach LLM engines; " +
      "`split_sentences=1` (the default for text) keeps lines apart.",
    request: { body: DEEPL_TRANSLATE_BODY, formBody: DEEPL_TRANSLATE_BODY },
    responses: DEEPL_TRANSLATE_ANSWER,
    errors: TRANSLATE_ERRORS,
    examples: [
      { body: { text: ["Good morning."], target_lang: "DE" }, status: 200 },
      { body: { text: ["Good morning."], target_lang: "PT-BR" }, status: 400 },
    ],
  },
  deeplLanguages("get"),
  deeplLanguages("post"),
  deeplUsage("get"),
  deeplUsage("post"),
];

const libreErrors = {
  tag: TAG,
  errorBody: named("LibreError", LibreErrorSchema),
  errorStatuses: LIBRE_ERROR_STATUSES,
  busyStatus: LIBRE_BUSY_STATUS,
} as const;

/** The `{token}` path parameter of the routes for URL-only clients. */
const pathToken = z.object({
  token: z.string().describe("The tolk API token: these routes take it here and nowhere else."),
});

/**
 * Where the compatibility routes take the token: their client's own place first, then tolk's
 * headers (one rule, `requireCompatToken`). A token in the path wins over any other place.
 */
const PATH_TOKEN_PLACES: readonly TokenPlace[] = ["path"];
const LIBRE_TOKEN_PLACES: readonly TokenPlace[] = ["body", "x-svc-token", "bearer"];
const DEEPLX_TOKEN_PLACES: readonly TokenPlace[] = ["query", "bearer", "x-svc-token"];

/**
 * LibreTranslate's bodies, with `api_key` and (for the routes with the token in the path, where
 * the path wins and `api_key` is not read) without.
 */
const LIBRE_BODIES = {
  translate: [
    named("LibreTranslateRequest", LibreTranslateRequestSchema),
    named("LibreTranslatePathRequest", LibreTranslateRequestSchema.omit({ api_key: true })),
  ],
  detect: [
    named("LibreDetectRequest", LibreDetectRequestSchema),
    named("LibreDetectPathRequest", LibreDetectRequestSchema.omit({ api_key: true })),
  ],
} as const;

/** LibreTranslate's routes under `base`; `inPath`: the token is part of the path. */
function libreRoutes(base: string, inPath: boolean): ApiRoute[] {
  const params = inPath ? { params: pathToken } : {};
  const where = inPath ? " (token in the path, for URL-only clients)" : "";
  const examples = (body: unknown) => [
    { body, status: 200 },
    ...(inPath ? [{ body, params: { token: "not-the-token" }, status: 403 }] : []),
  ];
  const keyed = {
    ...libreErrors,
    auth: "token",
    tokenPlaces: inPath ? PATH_TOKEN_PLACES : LIBRE_TOKEN_PLACES,
    authNote: inPath
      ? "The token is the path's `{token}`; a wrong one is 403 `{error}`."
      : "LibreTranslate clients send the token as `api_key` in the body (X-Svc-Token or a " +
        "Bearer header work too); a wrong key is 403, a missing one 400 `{error}`. A request " +
        "that is not JSON may put its fields, `api_key` included, in the query string, as " +
        "LibreTranslate reads them.",
  } as const;
  const open = { ...libreErrors, auth: "none", request: params } as const;
  return [
    {
      ...keyed,
      method: "post",
      path: `${base}/translate`,
      summary: `LibreTranslate: translate${where}`,
      description: "`q` a string or an array; `source` auto adds `detectedLanguage` (confidence " +
        "0..100); `format` text|html; `alternatives` 0..3. A form's line breaks are read as " +
        "LF, as LibreTranslate reads them.",
      request: {
        ...params,
        body: LIBRE_BODIES.translate[inPath ? 1 : 0],
        formBody: LIBRE_BODIES.translate[inPath ? 1 : 0],
      },
      responses: {
        200: {
          description: "The translation(s), in the shape of q.",
          body: named("LibreTranslateResponse", LibreTranslateResponseSchema),
        },
      },
      errors: TRANSLATE_ERRORS,
      examples: examples({ q: "Good morning.", source: "en", target: "fr" }),
    },
    {
      ...keyed,
      method: "post",
      path: `${base}/detect`,
      summary: `LibreTranslate: detect a language${where}`,
      request: {
        ...params,
        body: LIBRE_BODIES.detect[inPath ? 1 : 0],
        formBody: LIBRE_BODIES.detect[inPath ? 1 : 0],
      },
      responses: {
        200: {
          description: "Candidates, best first, confidence 0..100.",
          body: named("LibreDetectResponse", LibreDetectResponseSchema),
        },
      },
      errors: ["invalid_request"],
      examples: examples({ q: "Guten Morgen, wie geht es dir?" }),
    },
    {
      ...open,
      method: "get",
      path: `${base}/languages`,
      summary: `LibreTranslate: languages${where}`,
      responses: {
        200: {
          description: "Every language with the ones it translates into.",
          body: named("LibreLanguagesResponse", LibreLanguagesResponseSchema),
        },
      },
      errors: [],
      examples: [{ ...(inPath ? { params: { token: "any" } } : {}), status: 200 }],
    },
    {
      ...open,
      method: "get",
      path: `${base}/frontend/settings`,
      summary: `LibreTranslate: front-end settings${where}`,
      responses: {
        200: {
          description: "Limits and defaults a LibreTranslate front end reads first.",
          body: named("LibreFrontendSettings", LibreFrontendSettingsSchema),
        },
      },
      errors: [],
      examples: [{ ...(inPath ? { params: { token: "any" } } : {}), status: 200 }],
    },
    disabled("translate_file", "translate a file", "file translation"),
    disabled("suggest", "suggest a translation", "suggestions"),
  ];

  /** A LibreTranslate route tolk does not serve, refused as a server with `feature` disabled. */
  function disabled(path: string, summary: string, feature: string): ApiRoute {
    return {
      ...open,
      method: "post",
      path: `${base}/${path}`,
      summary: `LibreTranslate: ${summary}, not served${where}`,
      description: `403 \`{error}\`, as LibreTranslate answers with ${feature} disabled ` +
        "(`/frontend/settings` says so), before any key or body is read.",
      responses: {},
      errors: ["permission_required"],
      examples: [{ ...(inPath ? { params: { token: "any" } } : {}), status: 403 }],
    };
  }
}

/** DeepLX's routes under `base`; `inPath`: the token is part of the path. */
function deeplxRoutes(base: string, inPath: boolean): ApiRoute[] {
  const where = inPath ? " (token in the path)" : "";
  const common = {
    tag: TAG,
    method: "post",
    auth: "token",
    tokenPlaces: inPath ? PATH_TOKEN_PLACES : DEEPLX_TOKEN_PLACES,
    authNote: inPath
      ? "The token is the path's `{token}`; a wrong one is 401 `{code, message}`."
      : "DeepLX clients send `?token=<token>` or `Authorization: Bearer <token>`; a bad one is " +
        "401 `{code, message}`.",
    errors: TRANSLATE_ERRORS,
    errorBody: named("DeepLXError", DeepLXErrorSchema),
    errorStatuses: DEEPLX_ERROR_STATUSES,
    busyStatus: DEEPLX_BUSY_STATUS,
  } as const;
  const params = inPath ? { params: pathToken } : {};
  const examples = (body: unknown) => [
    { body, status: 200 },
    ...(inPath ? [{ body, params: { token: "not-the-token" }, status: 401 }] : []),
  ];
  const translate = (path: string, summary: string): ApiRoute => ({
    ...common,
    path: `${base}${path}`,
    summary: `DeepLX: ${summary}${where}`,
    request: { ...params, body: named("DeepLXRequest", DeepLXRequestSchema) },
    responses: {
      200: {
        description: "The translation, DeepLX's shape.",
        body: named("DeepLXResponse", DeepLXResponseSchema),
      },
    },
    examples: examples({ text: "Good morning.", target_lang: "DE" }),
  });
  return [
    translate("/translate", "translate a text"),
    translate("/v1/translate", "translate a text (DeepLX's Pro-account path, the same fields)"),
    {
      ...common,
      path: `${base}/v2/translate`,
      summary: `DeepLX: translate texts in DeepL's official shape${where}`,
      description: "DeepLX's DeepL-shaped path, served by DeepL's POST /v2/translate (one " +
        "translation per text; a JSON body whatever its Content-Type, or a form); " +
        "errors in DeepLX's shape.",
      ...(inPath ? {} : { tokenPlaces: [...DEEPLX_TOKEN_PLACES, "deepl-auth-key"] }),
      request: { ...params, body: DEEPL_TRANSLATE_BODY, formBody: DEEPL_TRANSLATE_BODY },
      responses: DEEPL_TRANSLATE_ANSWER,
      examples: examples({ text: ["Good morning."], target_lang: "DE" }),
    },
  ];
}

/** Every compatibility route. */
export const COMPAT_ROUTES: readonly ApiRoute[] = [
  ...DEEPL_ROUTES,
  ...DEEPL_GLOSSARY_ROUTES,
  ...libreRoutes("/v1/compat/libre", false),
  ...libreRoutes("/v1/compat/t/{token}/libre", true),
  ...deeplxRoutes("/v1/compat/deeplx", false),
  ...deeplxRoutes("/v1/compat/t/{token}/deeplx", true),
];
