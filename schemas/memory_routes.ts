/**
 * Route-table entries of the translation memory (DECISIONS.md, "Translation memory").
 */
import { z } from "zod";
import { type ApiRoute, named } from "./api_route.ts";
import {
  AddMemoryRequestSchema,
  AddMemoryResponseSchema,
  MemoryEntriesQuerySchema,
  MemoryExportQuerySchema,
  MemoryImportResponseSchema,
  MemoryPageSchema,
  TMX_MEDIA_TYPES,
  TmxDocumentSchema,
} from "./memory.ts";

const tmxDocument = named("TmxDocument", TmxDocumentSchema);

const TMX_EXAMPLE = '<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header ' +
  'creationtool="x" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" ' +
  'srclang="en" datatype="plaintext"/><body><tu><tuv xml:lang="en"><seg>Hello</seg></tuv>' +
  '<tuv xml:lang="de"><seg>Hallo</seg></tuv></tu></body></tmx>';

/** The memory routes. */
export const MEMORY_ROUTES: readonly ApiRoute[] = [
  {
    method: "get",
    path: "/v1/memory/entries",
    tag: "Data",
    summary: "Memory entries, newest first",
    auth: "token",
    request: { query: MemoryEntriesQuerySchema },
    responses: { 200: { description: "One page.", body: named("MemoryPage", MemoryPageSchema) } },
    errors: ["invalid_request", "unsupported_language", "storage_unavailable"],
    examples: [{ status: 200 }, { query: { source_lang: "pt" }, status: 422 }],
  },
  {
    method: "post",
    path: "/v1/memory/entries",
    tag: "Data",
    summary: "Add your own translations",
    description: "Entries get origin user and win over the service's own (origin engine).",
    auth: "token",
    request: { body: named("AddMemoryRequest", AddMemoryRequestSchema) },
    responses: {
      201: { description: "Written.", body: named("AddMemoryResponse", AddMemoryResponseSchema) },
    },
    errors: ["invalid_request", "unsupported_language", "payload_too_large", "storage_unavailable"],
    examples: [
      {
        body: {
          source_lang: "en",
          target_lang: "de",
          entries: [{ source: "Save", target: "Sichern" }],
        },
        status: 201,
      },
    ],
  },
  {
    method: "delete",
    path: "/v1/memory/entries/{id}",
    tag: "Data",
    summary: "Forget one memory entry",
    auth: "token",
    request: { params: z.object({ id: z.string().describe("The entry's id.") }) },
    responses: { 204: { description: "The entry is gone." } },
    errors: ["not_found", "storage_unavailable"],
    examples: [{ params: { id: "999999999" }, status: 404 }],
  },
  {
    method: "post",
    path: "/v1/memory/import",
    tag: "Data",
    summary: "Import a TMX 1.4 file",
    description: "Send the file as the body with Content-Type: application/x-tmx+xml " +
      "(application/xml and text/xml are read too). Variants in one of the 16 languages become " +
      "entries (origin user unless the file says x-tolk-origin engine); others are counted as " +
      "skipped. All or nothing.",
    auth: "token",
    request: { body: tmxDocument, bodyMediaTypes: TMX_MEDIA_TYPES },
    responses: {
      200: {
        description: "What was read.",
        body: named("MemoryImportResponse", MemoryImportResponseSchema),
      },
    },
    errors: ["invalid_request", "payload_too_large", "storage_unavailable"],
    examples: [{ body: TMX_EXAMPLE, status: 200 }, { body: "<tmx>", status: 400 }],
  },
  {
    method: "get",
    path: "/v1/memory/export",
    tag: "Data",
    summary: "Export the memory as TMX 1.4",
    auth: "token",
    request: { query: MemoryExportQuerySchema },
    responses: {
      200: { description: "The TMX file.", body: tmxDocument, mediaType: TMX_MEDIA_TYPES[0] },
    },
    errors: ["invalid_request", "storage_unavailable"],
    examples: [{ query: { format: "tmx" }, status: 200 }],
  },
];
