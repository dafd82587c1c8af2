/**
 * Requests built the way `GET /v1/openapi.json` describes them: the body encoded in a media type
 * the operation documents, the token where the operation's security (or its `{token}` path
 * parameter, or an `api_key` body field) says. The OpenAPI tests send them to the real service,
 * so a document that names a media type or a security scheme the service does not accept fails.
 */
import type { ApiExample, ApiRoute } from "../../schemas/api_route.ts";

type JsonObject = Record<string, unknown>;

/** One operation of the document, as far as the tests read it. */
export interface DocumentedOperation {
  security: Record<string, unknown[]>[];
  parameters: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** The parts of the document these requests read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentedOperation>>;
  components: { schemas: Record<string, JsonObject>; securitySchemes: Record<string, JsonObject> };
}

/** One documented way of sending the token: a security scheme, the path, or the body. */
export type TokenWay =
  | { kind: "scheme"; name: string; scheme: JsonObject }
  | { kind: "path" }
  | { kind: "body" };

/**
 * Every way the document gives an operation to send the token, in its order: each security
 * alternative (one scheme each), then a `{token}` path parameter, then an `api_key` body field.
 */
export function tokenWays(document: OpenApiDocument, operation: DocumentedOperation): TokenWay[] {
  const ways: TokenWay[] = operation.security.map((alternative) => {
    const names = Object.keys(alternative);
    if (names.length !== 1) throw new Error(`one scheme per alternative, not ${names}`);
    const scheme = document.components.securitySchemes[names[0]];
    if (!scheme) throw new Error(`security scheme ${names[0]} is not in components`);
    return { kind: "scheme", name: names[0], scheme };
  });
  if (operation.parameters.some((p) => p.in === "path" && p.name === "token")) {
    ways.push({ kind: "path" });
  }
  const bodySchemas = Object.values(operation.requestBody?.content ?? {}).map((media) =>
    document.components.schemas[media.schema.$ref?.split("/").pop() ?? ""]
  );
  if (bodySchemas.some((schema) => (schema?.properties as JsonObject)?.api_key)) {
    ways.push({ kind: "body" });
  }
  return ways;
}

/** What to send: an example of a route, in one media type, with the token one way. */
export interface DocumentedRequest {
  route: ApiRoute;
  example: ApiExample;
  /** A media type of the operation's request body (ignored when the example has no body). */
  mediaType?: string;
  /** How the token goes; none: it is not sent. */
  way?: TokenWay;
  token: string;
}

/**
 * Sends a documented request to `baseUrl`.
 *
 * @throws {Error} when the example cannot be written in the media type (a non-string body in a
 * media type that is neither JSON nor a form).
 */
export function sendDocumented(baseUrl: string, request: DocumentedRequest): Promise<Response> {
  const { route, example, way, token } = request;
  const params = { ...example.params };
  if (way?.kind === "path") params.token ??= token;
  let path = route.path;
  for (const [name, value] of Object.entries(params)) {
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  const query = new URLSearchParams(example.query);
  const headers = new Headers();
  if (way?.kind === "scheme") {
    const { type, in: place, name, scheme } = way.scheme as Record<string, string>;
    if (type === "http") headers.set("authorization", `${scheme} ${token}`);
    else if (place === "header") headers.set(name, token);
    else if (place === "query") query.set(name, token);
    else throw new Error(`cannot send the token in ${place}`);
  }
  const bodyValue = way?.kind === "body"
    ? { ...example.body as JsonObject, api_key: token }
    : example.body;
  const body = bodyValue === undefined ? undefined : encodeBody(bodyValue, request.mediaType);
  // FormData sets its own multipart type, with the boundary.
  if (body !== undefined && !(body instanceof FormData)) {
    headers.set("content-type", request.mediaType ?? "application/json");
  }
  const search = query.size ? `?${query}` : "";
  return fetch(`${baseUrl}${path}${search}`, { method: route.method.toUpperCase(), headers, body });
}

/** `value` in `mediaType`: JSON, a URL-encoded or multipart form, or a text as it is. */
function encodeBody(value: unknown, mediaType = "application/json"): BodyInit {
  if (mediaType === "application/json") return JSON.stringify(value);
  if (mediaType === "application/x-www-form-urlencoded") {
    return new URLSearchParams(formFields(value as JsonObject));
  }
  if (mediaType === "multipart/form-data") {
    const form = new FormData();
    for (const [name, field] of formFields(value as JsonObject)) form.append(name, field);
    return form;
  }
  if (typeof value !== "string") throw new Error(`a ${mediaType} example must be a text`);
  return value;
}

/**
 * Form fields of a JSON value as compatibility clients write them: an array of texts as the
 * field repeated, an array of objects as `name[i].field` (DeepL's glossary forms).
 */
function formFields(value: JsonObject, prefix = ""): [string, string][] {
  return Object.entries(value).flatMap(([key, field]): [string, string][] => {
    const name = prefix + key;
    if (!Array.isArray(field)) return [[name, String(field)]];
    return field.flatMap((item, index): [string, string][] =>
      typeof item === "object" && item !== null
        ? formFields(item as JsonObject, `${name}[${index}].`)
        : [[name, String(item)]]
    );
  });
}
