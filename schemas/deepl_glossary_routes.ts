/**
 * Route-table entries of DeepL's glossaries under `/v1/compat/deepl` (v3, and the first v2 API of
 * one language pair per glossary), with what every DeepL route shares: the tag, the key, the
 * error shape.
 */
import { z } from "zod";
import { type ApiRoute, named } from "./api_route.ts";
import {
  DEEPL_BUSY_STATUS,
  DEEPL_ERROR_STATUSES,
  DeepLDictionaryQuerySchema,
  DeepLDictionaryRequestSchema,
  DeepLDictionarySummarySchema,
  DeepLErrorSchema,
  DeepLGlossaryEntriesSchema,
  DeepLGlossaryLanguagePairsSchema,
  DeepLGlossaryListSchema,
  DeepLGlossaryRequestSchema,
  DeepLGlossarySchema,
  DeepLV2GlossaryEntriesSchema,
  DeepLV2GlossaryListSchema,
  DeepLV2GlossaryRequestSchema,
  DeepLV2GlossarySchema,
  TSV_MEDIA_TYPE,
} from "./compat/deepl.ts";

/** The OpenAPI tag of every compatibility route. */
export const TAG = "Compatibility";

/** What every DeepL route shares. */
export const DEEPL_ROUTE = {
  tag: TAG,
  auth: "token",
  tokenPlaces: ["deepl-auth-key", "x-svc-token", "bearer"],
  authNote: "DeepL clients send `Authorization: DeepL-Auth-Key <token>`; a bad or missing key " +
    "is 403 `{message}`.",
  errorBody: named("DeepLError", DeepLErrorSchema),
  errorStatuses: DEEPL_ERROR_STATUSES,
  busyStatus: DEEPL_BUSY_STATUS,
} as const;

const GLOSSARIES = "/v1/compat/deepl/v3/glossaries";
const UNKNOWN_ID = { glossary_id: "00000000-0000-4000-8000-000000000000" };
const glossaryId = z.object({ glossary_id: z.string().describe("A tolk glossary id.") });
const glossaryBody = named("DeepLGlossary", DeepLGlossarySchema);
const glossaryRequest = named("DeepLGlossaryRequest", DeepLGlossaryRequestSchema);
const dictionaryRequest = named("DeepLDictionaryRequest", DeepLDictionaryRequestSchema);
const GLOSSARY_ERRORS = ["invalid_request", "not_found", "unsupported_language"];

/** DeepL's v3 glossaries, on tolk's glossaries. */
const V3_ROUTES: readonly ApiRoute[] = [
  {
    ...DEEPL_ROUTE,
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
    ...DEEPL_ROUTE,
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
    ...DEEPL_ROUTE,
    method: "get",
    path: `${GLOSSARIES}/{glossary_id}`,
    summary: "DeepL: a glossary",
    request: { params: glossaryId },
    responses: { 200: { description: "The glossary.", body: glossaryBody } },
    errors: ["not_found"],
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
  {
    ...DEEPL_ROUTE,
    method: "get",
    path: `${GLOSSARIES}/{glossary_id}/entries`,
    summary: "DeepL: a glossary's entries as TSV",
    request: { params: glossaryId, query: DeepLDictionaryQuerySchema },
    responses: {
      200: {
        description: "The dictionaries (one pair's when asked; a pair the glossary lacks is 404).",
        body: named("DeepLGlossaryEntries", DeepLGlossaryEntriesSchema),
      },
    },
    errors: GLOSSARY_ERRORS,
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
  {
    ...DEEPL_ROUTE,
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
    ...DEEPL_ROUTE,
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
    ...DEEPL_ROUTE,
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
    ...DEEPL_ROUTE,
    method: "delete",
    path: `${GLOSSARIES}/{glossary_id}`,
    summary: "DeepL: delete a glossary",
    request: { params: glossaryId },
    responses: { 204: { description: "Deleted." } },
    errors: ["not_found"],
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
];

const V2_GLOSSARIES = "/v1/compat/deepl/v2/glossaries";
const v2GlossaryBody = named("DeepLV2Glossary", DeepLV2GlossarySchema);
const v2GlossaryRequest = named("DeepLV2GlossaryRequest", DeepLV2GlossaryRequestSchema);

/** DeepL's first (v2) glossaries: the tolk glossaries with one dictionary. */
const V2_ROUTES: readonly ApiRoute[] = [
  {
    ...DEEPL_ROUTE,
    method: "post",
    path: V2_GLOSSARIES,
    summary: "DeepL v2: create a glossary of one language pair",
    description: "A tolk glossary with one dictionary (deepl-node's `createGlossary`).",
    request: { body: v2GlossaryRequest, formBody: v2GlossaryRequest },
    responses: { 201: { description: "The new glossary.", body: v2GlossaryBody } },
    errors: GLOSSARY_ERRORS,
    examples: [{
      body: { name: "Terms", source_lang: "en", target_lang: "de", entries: "tolk\ttolk" },
      status: 201,
    }, {
      body: { name: "Terms", source_lang: "en", target_lang: "xx", entries: "a\tb" },
      status: 400,
    }],
  },
  {
    ...DEEPL_ROUTE,
    method: "get",
    path: V2_GLOSSARIES,
    summary: "DeepL v2: list the glossaries of one language pair",
    responses: {
      200: {
        description: "The glossaries with one dictionary, oldest first.",
        body: named("DeepLV2GlossaryList", DeepLV2GlossaryListSchema),
      },
    },
    errors: [],
    examples: [{ status: 200 }],
  },
  {
    ...DEEPL_ROUTE,
    method: "get",
    path: `${V2_GLOSSARIES}/{glossary_id}`,
    summary: "DeepL v2: a glossary",
    description: "A glossary with several dictionaries is refused (read it through v3).",
    request: { params: glossaryId },
    responses: { 200: { description: "The glossary.", body: v2GlossaryBody } },
    errors: ["invalid_request", "not_found"],
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
  {
    ...DEEPL_ROUTE,
    method: "get",
    path: `${V2_GLOSSARIES}/{glossary_id}/entries`,
    summary: "DeepL v2: a glossary's entries",
    request: { params: glossaryId },
    responses: {
      200: {
        description: "The entries as TSV.",
        body: named("DeepLV2GlossaryEntries", DeepLV2GlossaryEntriesSchema),
        mediaType: TSV_MEDIA_TYPE,
      },
    },
    errors: ["invalid_request", "not_found"],
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
  {
    ...DEEPL_ROUTE,
    method: "delete",
    path: `${V2_GLOSSARIES}/{glossary_id}`,
    summary: "DeepL v2: delete a glossary",
    request: { params: glossaryId },
    responses: { 204: { description: "Deleted." } },
    errors: ["not_found"],
    examples: [{ params: UNKNOWN_ID, status: 404 }],
  },
  {
    ...DEEPL_ROUTE,
    method: "get",
    path: "/v1/compat/deepl/v2/glossary-language-pairs",
    summary: "DeepL v2: the language pairs a glossary may have",
    responses: {
      200: {
        description: "Every ordered pair of two different languages of the service.",
        body: named("DeepLGlossaryLanguagePairs", DeepLGlossaryLanguagePairsSchema),
      },
    },
    errors: [],
    examples: [{ status: 200 }],
  },
];

/** DeepL's glossaries, v3 and v2, on tolk's glossaries. */
export const DEEPL_GLOSSARY_ROUTES: readonly ApiRoute[] = [...V3_ROUTES, ...V2_ROUTES];
