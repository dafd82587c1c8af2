/**
 * Route-table entries of the glossaries (DECISIONS.md, "Glossaries").
 */
import { z } from "zod";
import { type ApiRoute, named } from "./api_route.ts";
import {
  CreateGlossaryRequestSchema,
  GlossaryDictionaryQuerySchema,
  GlossaryEntriesQuerySchema,
  GlossaryEntriesSchema,
  GlossaryListSchema,
  GlossarySchema,
  PatchGlossaryRequestSchema,
} from "./glossary.ts";

const IdParams = z.object({ glossary_id: z.string().describe("The glossary's id.") });
const UNKNOWN = { glossary_id: "00000000-0000-4000-8000-000000000000" };
const SAMPLE = {
  name: "Product terms",
  dictionaries: [{
    source_lang: "en",
    target_lang: "de",
    entries: "database\tDatenbank\ntolk\t\n",
    entries_format: "tsv",
  }],
};
const glossary = named("Glossary", GlossarySchema);

/** The glossary routes. */
export const GLOSSARY_ROUTES: readonly ApiRoute[] = [
  {
    method: "post",
    path: "/v1/glossaries",
    tag: "Data",
    summary: "Create a glossary",
    description: "Entries as TSV or CSV (RFC 4180); an empty target means do not translate. " +
      "A bad line, a source term twice, over 10000 entries or a term over 256 characters is " +
      "400 naming the dictionary (param dictionaries[i].entries) and the line.",
    auth: "token",
    request: { body: named("CreateGlossaryRequest", CreateGlossaryRequestSchema) },
    responses: { 201: { description: "The new glossary.", body: glossary } },
    errors: ["invalid_request", "unsupported_language", "payload_too_large", "storage_unavailable"],
    examples: [
      { body: SAMPLE, status: 201 },
      {
        body: { ...SAMPLE, dictionaries: [{ ...SAMPLE.dictionaries[0], entries: "no tab" }] },
        status: 400,
      },
    ],
  },
  {
    method: "get",
    path: "/v1/glossaries",
    tag: "Data",
    summary: "List glossaries",
    auth: "token",
    responses: {
      200: { description: "Every glossary.", body: named("GlossaryList", GlossaryListSchema) },
    },
    errors: ["storage_unavailable"],
    examples: [{ status: 200 }],
  },
  {
    method: "get",
    path: "/v1/glossaries/{glossary_id}",
    tag: "Data",
    summary: "One glossary",
    auth: "token",
    request: { params: IdParams },
    responses: { 200: { description: "The glossary.", body: glossary } },
    errors: ["not_found", "storage_unavailable"],
    examples: [{ params: UNKNOWN, status: 404 }],
  },
  {
    method: "get",
    path: "/v1/glossaries/{glossary_id}/entries",
    tag: "Data",
    summary: "A glossary's entries as TSV",
    auth: "token",
    request: { params: IdParams, query: GlossaryEntriesQuerySchema },
    responses: {
      200: {
        description: "Entries per dictionary.",
        body: named("GlossaryEntries", GlossaryEntriesSchema),
      },
    },
    errors: ["not_found", "unsupported_language", "storage_unavailable"],
    examples: [{ params: UNKNOWN, status: 404 }],
  },
  {
    method: "patch",
    path: "/v1/glossaries/{glossary_id}",
    tag: "Data",
    summary: "Rename a glossary or replace dictionaries",
    description: "A dictionary replaces the one of its language pair; one with no entries is a " +
      "400 (an empty file by mistake kept the terms): remove a pair with DELETE " +
      "/v1/glossaries/{glossary_id}/dictionaries.",
    auth: "token",
    request: { params: IdParams, body: named("PatchGlossaryRequest", PatchGlossaryRequestSchema) },
    responses: { 200: { description: "The glossary after the change.", body: glossary } },
    errors: ["invalid_request", "not_found", "unsupported_language", "storage_unavailable"],
    examples: [{ params: UNKNOWN, body: { name: "x" }, status: 404 }],
  },
  {
    method: "delete",
    path: "/v1/glossaries/{glossary_id}/dictionaries",
    tag: "Data",
    summary: "Remove one language pair's dictionary",
    auth: "token",
    request: { params: IdParams, query: GlossaryDictionaryQuerySchema },
    responses: { 204: { description: "The dictionary is gone; the others stay." } },
    errors: ["invalid_request", "not_found", "unsupported_language", "storage_unavailable"],
    examples: [{ params: UNKNOWN, query: { source_lang: "en", target_lang: "de" }, status: 404 }],
  },
  {
    method: "delete",
    path: "/v1/glossaries/{glossary_id}",
    tag: "Data",
    summary: "Delete a glossary",
    auth: "token",
    request: { params: IdParams },
    responses: { 204: { description: "The glossary is gone." } },
    errors: ["not_found", "storage_unavailable"],
    examples: [{ params: UNKNOWN, status: 404 }],
  },
];
