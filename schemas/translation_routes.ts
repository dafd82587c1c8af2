/**
 * Route-table entries of the translation contract (health, capabilities, detect, translate,
 * the WebSocket and the API description itself).
 */
import { z } from "zod";
import { type ApiRoute, named } from "./api_route.ts";
import {
  CapabilitiesResponseSchema,
  DetectRequestSchema,
  DetectResponseSchema,
  HealthResponseSchema,
  TranslateRequestSchema,
  TranslateResponseSchema,
} from "./translation.ts";

/** The OpenAPI document served by `GET /v1/openapi.json` (checked in full by a validator). */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string().describe("OpenAPI version: 3.1.0."),
  info: z.looseObject({ title: z.string(), version: z.string() }).describe("About the API."),
  paths: z.record(z.string(), z.unknown()).describe("Every /v1 path with its operations."),
}).describe("The OpenAPI 3.1 description of this service, generated from its schemas.");

const SAMPLE_TRANSLATE = { source: "en", target: "fr", texts: ["Good morning."] };

/** The translation contract's routes. */
export const TRANSLATION_ROUTES: readonly ApiRoute[] = [
  {
    method: "get",
    path: "/v1/health",
    tag: "Service",
    summary: "Liveness and readiness",
    description: "Answers 503 engine_unavailable while the service is stopping.",
    auth: "none",
    responses: {
      200: {
        description: "The service runs.",
        body: named("HealthResponse", HealthResponseSchema),
        headers: ["Svc-API-Version"],
      },
    },
    errors: ["engine_unavailable"],
    examples: [{ status: 200 }],
  },
  {
    method: "get",
    path: "/v1/capabilities",
    tag: "Service",
    summary: "Engines, languages, features and limits",
    auth: "none",
    responses: {
      200: {
        description: "What this service can do now.",
        body: named("CapabilitiesResponse", CapabilitiesResponseSchema),
        headers: ["Svc-API-Version"],
      },
    },
    errors: [],
    examples: [{ status: 200 }],
  },
  {
    method: "get",
    path: "/v1/openapi.json",
    tag: "Service",
    summary: "This document",
    description: "OpenAPI 3.1, generated from the service's zod schemas and route table.",
    auth: "none",
    responses: {
      200: {
        description: "The API description.",
        body: named("OpenApiDocument", OpenApiDocumentSchema),
        headers: ["Svc-API-Version"],
      },
    },
    errors: [],
    examples: [{ status: 200 }],
  },
  {
    method: "post",
    path: "/v1/detect",
    tag: "Translation",
    summary: "Detect the language of each text",
    auth: "token",
    clientHeader: true,
    request: { body: named("DetectRequest", DetectRequestSchema) },
    responses: {
      200: {
        description: "One result per text.",
        body: named("DetectResponse", DetectResponseSchema),
        headers: ["Svc-API-Version"],
      },
    },
    errors: ["invalid_request", "payload_too_large", "batch_too_large"],
    examples: [{ body: { texts: ["Guten Morgen, wie geht es dir?"] }, status: 200 }],
  },
  {
    method: "post",
    path: "/v1/translate",
    tag: "Translation",
    summary: "Translate a batch of texts",
    auth: "token",
    clientHeader: true,
    request: { body: named("TranslateRequest", TranslateRequestSchema) },
    responses: {
      200: {
        description: "One result per text, in order.",
        body: named("TranslateResponse", TranslateResponseSchema),
        headers: ["Svc-API-Version", "Svc-Glossary-Report"],
      },
    },
    errors: [
      "invalid_request",
      "payload_too_large",
      "batch_too_large",
      "unsupported_language",
      "engine_unavailable",
    ],
    examples: [
      { body: SAMPLE_TRANSLATE, status: 200 },
      { body: { ...SAMPLE_TRANSLATE, target: "xx" }, status: 422 },
    ],
  },
  {
    method: "get",
    path: "/v1/ws/translate",
    tag: "Translation",
    summary: "Translate over a WebSocket",
    description: "Upgrade to a WebSocket; each text or binary (UTF-8) frame is a " +
      "TranslateRequest and gets one text frame back, a TranslateResponse or an ErrorResponse, " +
      "in request order. An error frame does not close the connection. At most 32 frames are " +
      "worked on at once; one sent beyond that gets a 503 engine_unavailable frame. Close " +
      "codes: 1009 (frame over 1 MiB, after the frames before it are answered), 1001 (service " +
      "stopping), 4401 (token revoked or rotated, or API disabled, while connected: after a " +
      "ws_unauthorized frame), 1008 (the client keeps sending while more than 4 MiB of its " +
      "replies wait unread).",
    auth: "token",
    authNote: "The handshake also takes ?token=, ?access_token= or " +
      "Sec-WebSocket-Protocol: bearer,<token>. A failed handshake is 401 ws_unauthorized.",
    clientHeader: true,
    responses: { 101: { description: "Switching to the WebSocket protocol." } },
    errors: ["invalid_request", "ws_unauthorized"],
    // A plain GET (no upgrade headers) is refused as documented; the upgrade has its own tests.
    examples: [{ status: 400 }],
  },
];
