/**
 * Route-table entries of the compatibility routes (DeepL, LibreTranslate, DeepLX), from which
 * `GET /v1/openapi.json` documents them. Their errors come in their clients' shapes and statuses.
 */
import { z } from "zod";
import { type ApiRoute, named } from "./api_route.ts";
import {
  DEEPL_ERROR_STATUSES,
  DeepLDictionaryQuerySchema,
  DeepLDictionaryRequestSchema,
  DeepLDictionarySummarySchema,
  DeepLErrorSchema,
  DeepLGlossaryEntriesSchema,
  DeepLGlossaryListSchema,
  DeepLGlossaryRequestSchema,
  DeepLGlossarySchema,
  DeepLLanguagesResponseSchema,
  DeepLTranslateRequestSchema,
  DeepLTranslateResponseSchema,
  DeepLUsageResponseSchema,
} from "./compat/deepl.ts";
import {
  DEEPLX_ERROR_STATUSES,
  DeepLXErrorSchema,
  DeepLXRequestSchema,
  DeepLXResponseSchema,
} from "./compat/deeplx.ts";
import {
  LIBRE_ERROR_STATUSES,
  LibreDetectRequestSchema,
  LibreDetectResponseSchema,
  LibreErrorSchema,
  LibreFrontendSettingsSchema,
  LibreLanguagesResponseSchema,
  LibreTranslateRequestSchema,
  LibreTranslateResponseSchema,
} from "./compat/libretranslate.ts";

const TAG = "Compatibility";
const TRANSLATE_ERRORS = [
  "invalid_request",
  "payload_too_large",
  "batch_too_large",
  "unsupported_language",
  "engine_unavailable",
];

const deepl = {
  tag: TAG,
  auth: "token",
  authNote: "DeepL clients send `Authorization: DeepL-Auth-Key <token>`; a bad or missing key " +
    "is 403 `{message}`.",
  errorBody: named("DeepLError", DeepLErrorSchema),
  errorStatuses: DEEPL_ERROR_STATUSES,
} as const;

const deeplUsage = (method: "get" | "post"): ApiRoute => ({
  ...deepl,
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

const DEEPL_ROUTES: readonly ApiRoute[] = [
  {
    ...deepl,
    method: "post",
    path: "/v1/compat/deepl/v2/translate",
    summary: "DeepL: translate texts",
    description: "DeepL's POST /v2/translate, form-encoded (repeated `text`) or JSON, on tolk's " +
      "pipeline. `tag_handling` html|xml is tolk's format of that name, with `ignore_tags`, " +
      "`splitting_tags`, `non_splitting_tags` and `outline_detection` as DeepL reads them; " +
      "`formality` is a tone hint, `custom_instructions` and `context` reach LLM engines; " +
      "`split_sentences=1` (the default for text) keeps lines apart.",
    request: {
      body: named("DeepLTranslateRequest", DeepLTranslateRequestSchema),
      formBody: named("DeepLTranslateRequest", DeepLTranslateRequestSchema),
    },
    responses: {
      200: {
        description: "One translation per text.",
        body: named("DeepLTranslateResponse", DeepLTranslateResponseSchema),
      },
    },
    errors: TRANSLATE_ERRORS,
    examples: [
      { body: { text: ["Good morning."], target_lang: "DE" }, status: 200 },
      { body: { text: ["Good morning."], target_lang: "PT-BR" }, status: 400 },
    ],
  },
  {
    ...deepl,
    method: "get",
    path: "/v1/compat/deepl/v2/languages",
    summary: "DeepL: source or target languages",
    request: {
      query: z.object({
        type: z.enum(["source", "target"]).optional().describe("Default source."),
      }),
    },
    responses: {
      200: {
        description: "Languages in DeepL's spelling.",
        body: named("DeepLLanguagesResponse", DeepLLanguagesResponseSchema),
      },
    },
    errors: ["invalid_request"],
    examples: [{ status: 200 }, { query: { type: "target" }, status: 200 }],
  },
  deeplUsage("get"),
  deeplUsage("post"),
];

const GLOSSARIES = "/v1/compat/deepl/v3/glossaries";
const UNKNOWN_ID = { glossary_id: "00000000-0000-4000-8000-000000000000" };
const glossaryId = z.object({ glossary_id: z.string().describe("A tolk glossary id.") });
const glossaryBody = named("DeepLGlossary", DeepLGlossarySchema);
const glossaryRequest = named("DeepLGlossaryRequest", DeepLGlossaryRequestSchema);
const dictionaryRequest = named("DeepLDictionaryRequest", DeepLDictionaryRequestSchema);
const GLOSSARY_ERRORS = ["invalid_request", "not_found", "unsupported_language"];

/** DeepL's v3 glossaries, on tolk's glossaries. */
const DEEPL_GLOSSARY_ROUTES: readonly ApiRoute[] = [
  {
    ...deepl,
    method: "post",
    path: GLOSSARIES,
    summary: "DeepL: create a glossary",
    description: "A tolk glossary (also under /v1/glossaries); a form names its fields " +
      "`dictionaries[0].source_lang`, `dictionaries[0].entries` …",
    request: { body: glossaryRequest, formBody: glossaryRequest },
    responses: { 201: { description: "The new glossary.", body: glossaryBody } },
    errors: GLOSSARY_ERRORS,
    examples: [{
      body: {
        name: "Terms",
        dictionaries: [{ source_lang: "EN", target_lang: "DE", entries: "tolk	tolk" }],
      },
      status: 201,
    }],
  },
  {
    ...deepl,
    method: "get",
    path: GLOSSARIES,
    summary: "DeepL: list glossaries",
    responses: {
      200: {
        description: "Every glossary, oldest first.",
        body: named("DeepLGlossaryList", DeepLGlossaryListSchema),
      },
    },
    errors: [],
    examples: [{ status: 200 }],
  },
  {
    ...deepl,
    method: "get",
    path: `${GLOSSARIES}/{glossary_id}`,
    summary: "DeepL: a glossary",
    request: { params: glossaryId },
    responses: { 200: { description: "The glossary.", body: glossaryBody } },
    errors: ["not_found"],
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
  {
    ...deepl,
    method: "get",
    path: `${GLOSSARIES}/{glossary_id}/entries`,
    summary: "DeepL: a glossary's entries as TSV",
    request: { params: glossaryId, query: DeepLDictionaryQuerySchema },
    responses: {
      200: {
        description: "The dictionaries (one pair's when asked).",
        body: named("DeepLGlossaryEntries", DeepLGlossaryEntriesSchema),
      },
    },
    errors: GLOSSARY_ERRORS,
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
  {
    ...deepl,
    method: "patch",
    path: `${GLOSSARIES}/{glossary_id}`,
    summary: "DeepL: rename a glossary or merge dictionaries into it",
    description: "A dictionary's entries are merged into the one of its pair: a term already " +
      "there takes the new target.",
    request: { params: glossaryId, body: glossaryRequest, formBody: glossaryRequest },
    responses: { 200: { description: "The changed glossary.", body: glossaryBody } },
    errors: GLOSSARY_ERRORS,
    examples: [{ params: UNKNOWN_ID, body: { name: "New" }, status: 404 }],
  },
  {
    ...deepl,
    method: "put",
    path: `${GLOSSARIES}/{glossary_id}/dictionaries`,
    summary: "DeepL: replace one dictionary",
    request: { params: glossaryId, body: dictionaryRequest, formBody: dictionaryRequest },
    responses: {
      200: {
        description: "The dictionary's summary.",
        body: named("DeepLDictionarySummary", DeepLDictionarySummarySchema),
      },
    },
    errors: GLOSSARY_ERRORS,
    examples: [{
      params: UNKNOWN_ID,
      body: { source_lang: "en", target_lang: "de", entries: "a	b" },
      status: 404,
    }],
  },
  {
    ...deepl,
    method: "delete",
    path: `${GLOSSARIES}/{glossary_id}/dictionaries`,
    summary: "DeepL: delete one dictionary",
    request: { params: glossaryId, query: DeepLDictionaryQuerySchema },
    responses: { 204: { description: "Deleted." } },
    errors: GLOSSARY_ERRORS,
    examples: [{
      params: UNKNOWN_ID,
      query: { source_lang: "en", target_lang: "de" },
      status: 404,
    }],
  },
  {
    ...deepl,
    method: "delete",
    path: `${GLOSSARIES}/{glossary_id}`,
    summary: "DeepL: delete a glossary",
    request: { params: glossaryId },
    responses: { 204: { description: "Deleted." } },
    errors: ["not_found"],
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
];

const libreErrors = {
  tag: TAG,
  errorBody: named("LibreError", LibreErrorSchema),
  errorStatuses: LIBRE_ERROR_STATUSES,
} as const;

/** LibreTranslate's four routes under `base`; `pathToken`: the token is part of the path. */
function libreRoutes(base: string, pathToken: boolean): ApiRoute[] {
  const params = pathToken
    ? { params: z.object({ token: z.string().describe("The tolk API token.") }) }
    : {};
  const where = pathToken ? " (token in the path, for URL-only clients)" : "";
  const examples = (body: unknown) =>
    pathToken
      ? [{ body, params: { token: "not-the-token" }, status: 403 }]
      : [{ body, status: 200 }];
  const keyed = {
    ...libreErrors,
    auth: "token",
    authNote: "LibreTranslate clients send the token as `api_key` in the body" +
      (pathToken ? " or in the path" : "") + "; a wrong key is 403, a missing one 400 `{error}`.",
  } as const;
  const open = { ...libreErrors, auth: "none", request: params } as const;
  return [
    {
      ...keyed,
      method: "post",
      path: `${base}/translate`,
      summary: `LibreTranslate: translate${where}`,
      description: "`q` a string or an array; `source` auto adds `detectedLanguage` (confidence " +
        "0..100); `format` text|html; `alternatives` 0..3.",
      request: {
        ...params,
        body: named("LibreTranslateRequest", LibreTranslateRequestSchema),
        formBody: named("LibreTranslateRequest", LibreTranslateRequestSchema),
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
        body: named("LibreDetectRequest", LibreDetectRequestSchema),
        formBody: named("LibreDetectRequest", LibreDetectRequestSchema),
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
      examples: [{ ...(pathToken ? { params: { token: "any" } } : {}), status: 200 }],
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
      examples: [{ ...(pathToken ? { params: { token: "any" } } : {}), status: 200 }],
    },
  ];
}

/** DeepLX's translate route at `path`; `pathToken`: the token is part of the path. */
function deeplxRoute(path: string, pathToken: boolean): ApiRoute {
  const body = { text: "Good morning.", target_lang: "DE" };
  return {
    tag: TAG,
    method: "post",
    path,
    summary: `DeepLX: translate a text${pathToken ? " (token in the path)" : ""}`,
    auth: "token",
    authNote: pathToken
      ? "The token is part of the path; a wrong one is 401 `{code, message}`."
      : "DeepLX clients send `?token=<token>` or `Authorization: Bearer <token>`; a bad one is " +
        "401 `{code, message}`.",
    request: {
      ...(pathToken
        ? { params: z.object({ token: z.string().describe("The tolk API token.") }) }
        : { query: z.object({ token: z.string().optional().describe("The tolk API token.") }) }),
      body: named("DeepLXRequest", DeepLXRequestSchema),
    },
    responses: {
      200: {
        description: "The translation, DeepLX's shape.",
        body: named("DeepLXResponse", DeepLXResponseSchema),
      },
    },
    errors: TRANSLATE_ERRORS,
    errorBody: named("DeepLXError", DeepLXErrorSchema),
    errorStatuses: DEEPLX_ERROR_STATUSES,
    examples: pathToken ? [{ body, params: { token: "not-the-token" }, status: 401 }] : [{
      body,
      status: 200,
    }],
  };
}

/** Every compatibility route. */
export const COMPAT_ROUTES: readonly ApiRoute[] = [
  ...DEEPL_ROUTES,
  ...DEEPL_GLOSSARY_ROUTES,
  ...libreRoutes("/v1/compat/libre", false),
  ...libreRoutes("/v1/compat/t/{token}/libre", true),
  deeplxRoute("/v1/compat/deeplx/translate", false),
  deeplxRoute("/v1/compat/t/{token}/deeplx/translate", true),
];
