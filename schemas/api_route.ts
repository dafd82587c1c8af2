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

/** A successful answer of a route. */
export interface ApiSuccess {
  description: string;
  /** JSON body; absent for bodiless answers (204, 101). */
  body?: NamedSchema;
}

/** An example request the running service answers as documented (the tests send each one). */
export interface ApiExample {
  /** JSON body sent. */
  body?: unknown;
  /** Query parameters sent. */
  query?: Record<string, string>;
  /** Path parameters, substituted into `{name}`. */
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
  /** `token`: the API token (X-Svc-Token or Bearer); `none`: open. */
  auth: "token" | "none";
  /** Extra ways this route accepts the token, said in its description (WebSocket carriers). */
  authNote?: string;
  /** Reads `X-Svc-Client`. */
  clientHeader?: boolean;
  request?: {
    body?: NamedSchema;
    /** Form-encoded body (compatibility clients); documented beside the JSON one. */
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
  /** Requests the tests send to the running service; at least one. */
  examples: readonly ApiExample[];
}
