/**
 * The shape of one entry of the route table (`schemas/api_routes.ts`), from which
 * `GET /v1/openapi.json` is generated. Pure data over zod schemas: no Hono, no handlers.
 */
import type { z } from "zod";

/** A zod schema with the name it gets under `components.schemas`. */
export interface NamedSchema {
  name: string;
  schema: z.ZodType;
}

/**
 * Names a schema for the OpenAPI document.
 *
 * @example
 * ```ts
 * const request = named("TranslateRequest", TranslateRequestSchema);
 * ```
 */
export function named(name: string, schema: z.ZodType): NamedSchema {
  return { name, schema };
}

/** The media type of a body when its route says none. */
export const JSON_MEDIA_TYPE = "application/json";

/** The media types of a form body, which compatibility clients send instead of JSON. */
export const FORM_MEDIA_TYPES = [
  "application/x-www-form-urlencoded",
  "multipart/form-data",
] as const;

/** A successful answer of a route. */
export interface ApiSuccess {
  description: string;
  /** The body; absent for bodiless answers (204, 101). */
  body?: NamedSchema;
  /** The media type `body` is sent in (default {@link JSON_MEDIA_TYPE}). */
  mediaType?: string;
  /** Contract headers this answer carries besides `x-request-id` (the document describes them). */
  headers?: readonly SuccessHeader[];
}

/** Headers of successful answers that clients read (translation-service.md, DECISIONS.md). */
export type SuccessHeader = "Svc-API-Version" | "Svc-Glossary-Report";

/**
 * Where a route takes the API token. `x-svc-token`, `bearer`, `deepl-auth-key` (the
 * `Authorization: DeepL-Auth-Key <token>` of DeepL's clients) and `query` (`?token=`) are
 * OpenAPI security schemes; `path` (a `{token}` path parameter) and `body` (LibreTranslate's
 * `api_key`) are not, so the document shows them as the parameter or the body field they are.
 */
export type TokenPlace = "x-svc-token" | "bearer" | "deepl-auth-key" | "query" | "path" | "body";

/** Where token routes take the token unless they say otherwise. */
export const DEFAULT_TOKEN_PLACES: readonly TokenPlace[] = ["x-svc-token", "bearer"];

/** An example request the running service answers as documented (the tests send each one). */
export interface ApiExample {
  /** Body sent: a value of the route's body schema, in each media type the route accepts. */
  body?: unknown;
  /** Query parameters sent. */
  query?: Record<string, string>;
  /** Path parameters, substituted into `{name}`; a `{token}` not given here is the real token. */
  params?: Record<string, string>;
  /** The status the service answers (one of the documented ones). */
  status: number;
}

/** One method on one path of the service. */
export interface ApiRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI form, parameters in braces: `/v1/history/{id}`. */
  path: string;
  /** Group in the document (Translation, Data, Compatibility…). */
  tag: string;
  summary: string;
  description?: string;
  /** `token`: the API token is required (where: {@link ApiRoute.tokenPlaces}); `none`: open. */
  auth: "token" | "none";
  /** Where the token is accepted, each one alone (default {@link DEFAULT_TOKEN_PLACES}). */
  tokenPlaces?: readonly TokenPlace[];
  /** Extra ways this route accepts the token, said in its description (WebSocket carriers). */
  authNote?: string;
  /** Reads `X-Svc-Client`. */
  clientHeader?: boolean;
  request?: {
    body?: NamedSchema;
    /** The media types `body` is accepted in (default {@link JSON_MEDIA_TYPE} alone). */
    bodyMediaTypes?: readonly string[];
    /**
     * Form body (compatibility clients), URL-encoded or multipart; documented beside the JSON one.
     */
    formBody?: NamedSchema;
    query?: z.ZodObject;
    params?: z.ZodObject;
  };
  /** Successful answers by status. */
  responses: Record<number, ApiSuccess>;
  /**
   * Contract error codes this route answers with, besides the ones every route may give
   * (`host_not_allowed`, `internal_error`, and `unauthorized` on token routes).
   */
  errors: readonly string[];
  /** Error bodies in another shape (compatibility routes); default ErrorResponse. */
  errorBody?: NamedSchema;
  /** Statuses this route's client shape answers instead of tolk's (compatibility routes). */
  errorStatuses?: Readonly<Record<number, number>>;
  /**
   * The status this route's client shape gives `engine_unavailable` when it says when to retry
   * (a full queue), where that differs from the engine being down (LibreTranslate's 429).
   */
  busyStatus?: number;
  /** Requests the tests send to the running service; at least one. */
  examples: readonly ApiExample[];
}
