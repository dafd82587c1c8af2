/**
 * Builds the OpenAPI 3.1 document of `tolk serve` from the route table and the zod schemas
 * (`z.toJSONSchema`): nothing in it is written by hand but the route table's words.
 */
import { z } from "zod";
import {
  type ApiRoute,
  DEFAULT_TOKEN_PLACES,
  FORM_MEDIA_TYPES,
  JSON_MEDIA_TYPE,
  type NamedSchema,
  type SuccessHeader,
  type TokenPlace,
} from "../../schemas/api_route.ts";
import { API_VERSION_DATE, ErrorResponseSchema } from "../../schemas/translation.ts";

/** Status and type of an error code, as the service's error factory has them. */
export type ErrorCodeInfo = Readonly<Record<string, { status: number; type: string }>>;

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** `info.version`. */
  version: string;
  /** Every contract error code with its status and type. */
  errorCodes: ErrorCodeInfo;
}

type JsonObject = Record<string, unknown>;

const ERROR_RESPONSE = { name: "ErrorResponse", schema: ErrorResponseSchema };

/**
 * The OpenAPI document for `routes`.
 *
 * @throws {Error} when a route names an unknown error code or two schemas share a name.
 * @example
 * ```ts
 * const document = buildOpenApiDocument(API_ROUTES, { version: APP_VERSION, errorCodes: ERROR_CODES });
 * ```
 */
export function buildOpenApiDocument(
  routes: readonly ApiRoute[],
  options: OpenApiOptions,
): JsonObject {
  const components = new SchemaComponents();
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation(route, components, options.errorCodes);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "tolk translation service",
      version: options.version,
      description: "The local translation API of `tolk serve`. Token-protected operations take " +
        "the API token as `X-Svc-Token` or `Authorization: Bearer`, and compatibility routes " +
        "where their clients put it (each operation's security, path or body says where); " +
        "`tolk api enable` or the settings page (`tolk settings`) makes one.",
    },
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: Object.fromEntries(
        Object.values(SECURITY_SCHEMES).map(({ name, scheme }) => [name, scheme]),
      ),
    },
  };
}

function operation(route: ApiRoute, components: SchemaComponents, codes: ErrorCodeInfo) {
  const request = route.request;
  return {
    operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+/g, "_")}`,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description || route.authNote
      ? { description: [route.description, route.authNote].filter(Boolean).join("\n\n") }
      : {}),
    security: security(route),
    parameters: [
      ...parameters(request?.params, "path"),
      ...parameters(request?.query, "query"),
      ...(route.clientHeader ? [CLIENT_HEADER] : []),
    ],
    ...(request?.body || request?.formBody
      ? { requestBody: { required: true, content: requestContent(route, components) } }
      : {}),
    responses: {
      ...successes(route, components),
      ...errors(route, components, codes),
    },
  };
}

/**
 * The security schemes of the places a token may be in. A token in the path or in the body
 * (LibreTranslate's `api_key`) has no scheme in OpenAPI: the parameter or the field says it.
 */
const SECURITY_SCHEMES: Partial<Record<TokenPlace, { name: string; scheme: JsonObject }>> = {
  "x-svc-token": { name: "token", scheme: { type: "apiKey", in: "header", name: "X-Svc-Token" } },
  bearer: { name: "bearer", scheme: { type: "http", scheme: "bearer" } },
  // RFC 7235 leaves the scheme name open: DeepL's clients send `DeepL-Auth-Key <token>`.
  "deepl-auth-key": {
    name: "deeplAuthKey",
    scheme: {
      type: "http",
      scheme: "DeepL-Auth-Key",
      description: "DeepL's clients: `Authorization: DeepL-Auth-Key <token>`.",
    },
  },
  query: {
    name: "queryToken",
    scheme: { type: "apiKey", in: "query", name: "token", description: "DeepLX's `?token=`." },
  },
};

/** One alternative per place of the route's token that is a security scheme; open: none. */
function security(route: ApiRoute): JsonObject[] {
  if (route.auth === "none") return [];
  return (route.tokenPlaces ?? DEFAULT_TOKEN_PLACES).flatMap((place) => {
    const scheme = SECURITY_SCHEMES[place];
    return scheme ? [{ [scheme.name]: [] }] : [];
  });
}

function requestContent(route: ApiRoute, components: SchemaComponents) {
  const { body, formBody, bodyMediaTypes = [JSON_MEDIA_TYPE] } = route.request ?? {};
  const example = route.examples.find((example) => example.body !== undefined)?.body;
  const content: Record<string, JsonObject> = {};
  for (const mediaType of body ? bodyMediaTypes : []) {
    content[mediaType] = {
      schema: components.ref(body!, "input"),
      ...(example === undefined ? {} : { example }),
    };
  }
  for (const mediaType of formBody ? FORM_MEDIA_TYPES : []) {
    content[mediaType] = { schema: components.ref(formBody!, "input") };
  }
  return content;
}

const REQUEST_ID_HEADER = {
  "x-request-id": {
    description: "The request's id (the client's own when it sent a safe one).",
    schema: { type: "string" },
  },
};

const SUCCESS_HEADERS: Record<SuccessHeader, JsonObject> = {
  "Svc-API-Version": {
    description: "The contract's version date.",
    required: true,
    schema: { type: "string", const: API_VERSION_DATE },
  },
  "Svc-Glossary-Report": {
    description: "With a glossary: `matched=<n>; applied=<m>`, the terms found in the texts " +
      "and those the translations use.",
    schema: { type: "string", pattern: "^matched=\\d+; applied=\\d+$" },
  },
};

const WWW_AUTHENTICATE = {
  "WWW-Authenticate": { description: "The scheme that would do.", schema: { type: "string" } },
};

/**
 * Headers of error answers, by the code that brings them (the error renderer's rules): a 401
 * names the scheme, a busy engine says when to retry.
 */
const ERROR_HEADERS: Readonly<Record<string, Record<string, JsonObject>>> = {
  unauthorized: WWW_AUTHENTICATE,
  ws_unauthorized: WWW_AUTHENTICATE,
  engine_unavailable: {
    "Retry-After": {
      description: "Seconds to wait, when the engine is busy rather than down.",
      schema: { type: "integer", minimum: 1 },
    },
  },
};

const CLIENT_HEADER = {
  name: "X-Svc-Client",
  in: "header",
  required: false,
  description: "Client name stored with history rows: 1 to 128 printable ASCII characters.",
  schema: { type: "string", maxLength: 128 },
};

function successes(route: ApiRoute, components: SchemaComponents) {
  const answers: Record<string, JsonObject> = {};
  for (const [status, success] of Object.entries(route.responses)) {
    answers[status] = {
      description: success.description,
      headers: {
        ...REQUEST_ID_HEADER,
        ...Object.fromEntries((success.headers ?? []).map((name) => [name, SUCCESS_HEADERS[name]])),
      },
      ...(success.body
        ? {
          content: {
            [success.mediaType ?? JSON_MEDIA_TYPE]: {
              schema: components.ref(success.body, "output"),
            },
          },
        }
        : {}),
    };
  }
  return answers;
}

/** Groups the route's error codes (and those every route may give) by status. */
function errors(route: ApiRoute, components: SchemaComponents, codes: ErrorCodeInfo) {
  const all = new Set(["host_not_allowed", "internal_error", ...route.errors]);
  // Every body passes a size limit (app/translation_app.ts, compat_app.ts).
  if (route.request?.body || route.request?.formBody) all.add("payload_too_large");
  if (route.auth === "token" && !all.has("ws_unauthorized")) all.add("unauthorized");
  const byStatus = new Map<number, string[]>();
  for (const code of all) {
    const info = codes[code];
    if (!info) throw new Error(`route ${route.method} ${route.path}: unknown error code ${code}`);
    const status = route.errorStatuses?.[info.status] ?? info.status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    if (code === "engine_unavailable" && route.busyStatus !== undefined) {
      byStatus.set(route.busyStatus, [...(byStatus.get(route.busyStatus) ?? []), code]);
    }
  }
  const body = route.errorBody ?? ERROR_RESPONSE;
  const answers: Record<string, JsonObject> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    answers[String(status)] = {
      description: `Error; code ${statusCodes.join(" or ")}.`,
      headers: Object.assign(
        {},
        REQUEST_ID_HEADER,
        ...statusCodes.map((code) => ERROR_HEADERS[code]),
      ),
      content: {
        "application/json": {
          schema: components.ref(body, "output"),
          ...(route.errorBody ? {} : {
            examples: Object.fromEntries(statusCodes.map((code) => [code, {
              value: {
                error: { code, message: "what went wrong", type: codes[code].type, param: null },
              },
            }])),
          }),
        },
      },
    };
  }
  return answers;
}

function parameters(schema: z.ZodObject | undefined, place: "query" | "path") {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = toJsonSchema(field as z.ZodType, "input");
    const { description, ...rest } = json;
    return {
      name,
      in: place,
      required: place === "path" || !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** `components.schemas`, filled as routes refer to named schemas. */
class SchemaComponents {
  readonly schemas: Record<string, JsonObject> = {};
  readonly #sources = new Map<string, z.ZodType>();

  ref(named: NamedSchema, io: "input" | "output"): JsonObject {
    const seen = this.#sources.get(named.name);
    if (seen && seen !== named.schema) {
      throw new Error(`two different schemas are named ${named.name}`);
    }
    if (!seen) {
      this.#sources.set(named.name, named.schema);
      this.schemas[named.name] = toJsonSchema(named.schema, io);
    }
    return { $ref: `#/components/schemas/${named.name}` };
  }
}

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema. Requests are described by what a
 * client may send (`input`), answers by what the service sends (`output`); a string piped into
 * an enum (languages: a non-string is a 400, an unknown string a 422) shows the enum.
 */
function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override(context) {
      const def = context.zodSchema._zod.def as { type: string; out?: z.ZodType };
      if (def.type === "pipe" && def.out?._zod.def.type === "enum") {
        const { description, ...values } = toJsonSchema(def.out, "output");
        Object.assign(context.jsonSchema, values);
        context.jsonSchema.description ??= description as string | undefined;
      }
    },
  }) as JsonObject;
  return json;
}
