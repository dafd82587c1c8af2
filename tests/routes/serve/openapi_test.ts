import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { z } from "zod";
import type { ApiRoute } from "../../../schemas/api_route.ts";
import { API_ROUTES } from "../../../schemas/api_routes.ts";
import { OpenApiDocumentSchema } from "../../../schemas/translation_routes.ts";
import { ErrorResponseSchema } from "../../../schemas/translation.ts";
import { expectBody } from "../../support/http_assertions.ts";
import {
  type DocumentedOperation,
  type OpenApiDocument,
  sendDocumented,
  type TokenWay,
  tokenWays,
} from "../../support/openapi_requests.ts";
import { withTranslationService } from "../../support/translation_service.ts";
import { startChatCompletionsStandIn } from "../../support/chat_completions_stand_in.ts";

async function fetchDocument(url: string) {
  const response = await fetch(`${url}/v1/openapi.json`);
  return await expectBody(response, 200, OpenApiDocumentSchema) as
    & z.infer<typeof OpenApiDocumentSchema>
    & OpenApiDocument;
}

/** `/v1/history/:id` → `/v1/history/{id}` (Hono's parameters in OpenAPI's form). */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

Deno.test("GET /v1/openapi.json answers without a token with a valid OpenAPI 3.1 document", async () => {
  await withTranslationService(async (service) => {
    const document = await fetchDocument(service.url);
    assert.equal(document.openapi, "3.1.0");
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, "3.1");
  });
});

const SERVICE_SHAPES = [
  { name: "with its data directory", options: {} },
  // Without stores there are no history, glossary or memory routes, so none may be documented.
  { name: "without history, glossaries and memory", options: { withoutStores: true } },
];

for (const { name, options } of SERVICE_SHAPES) {
  Deno.test(`the OpenAPI document lists exactly the /v1 routes the app serves, ${name}`, async () => {
    await withTranslationService(async (service) => {
      const document = await fetchDocument(service.url);
      const served = new Set(
        service.app.routes
          .filter((route) => route.method !== "ALL" && route.path.startsWith("/v1/"))
          .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`),
      );
      const documented = new Set(
        Object.entries(document.paths).flatMap(([path, operations]) =>
          Object.keys(operations).map((method) => `${method} ${path}`)
        ),
      );
      assert.ok(served.size >= 6, `too few routes found: ${[...served]}`);
      const missing = [...served].filter((route) => !documented.has(route));
      assert.deepEqual(
        missing,
        [],
        "served but missing from the route table (schemas/api_routes.ts)",
      );
      const stale = [...documented].filter((route) => !served.has(route));
      assert.deepEqual(stale, [], "documented but not served");
    }, options);
  });
}

Deno.test("every example is answered as documented, its body sent in each media type the document gives", async () => {
  await withTranslationService(async (service) => {
    const document = await fetchDocument(service.url);
    for (const route of API_ROUTES) {
      const operation = document.paths[route.path][route.method];
      assert.ok(route.examples.length > 0, `${route.method} ${route.path} has no example`);
      const way = route.auth === "token" ? tokenWays(document, operation)[0] : undefined;
      const mediaTypes = Object.keys(operation.requestBody?.content ?? { none: {} });
      for (const example of route.examples) {
        for (const mediaType of example.body === undefined ? ["none"] : mediaTypes) {
          const label = `${route.method.toUpperCase()} ${route.path} (${mediaType}) → ` +
            `${example.status}`;
          const documented = operation.responses[String(example.status)];
          assert.ok(documented, `${label}: status not documented`);
          const response = await sendDocumented(service.url, {
            route,
            example,
            mediaType,
            way,
            token: service.token,
          });
          await expectDocumentedAnswer(response, route, example.status, documented, label);
        }
      }
    }
  });
});

/**
 * Asserts the status and that the body is what the document says: in a documented media type and
 * parsed by the route's schema (an error by its error schema).
 */
async function expectDocumentedAnswer(
  response: Response,
  route: ApiRoute,
  status: number,
  documented: { content?: Record<string, unknown> },
  label: string,
) {
  const text = await response.text();
  assert.equal(response.status, status, `${label}: got ${response.status}: ${text}`);
  const success = route.responses[status];
  if (success && !success.body) {
    assert.equal(text, "", `${label}: a body the document does not declare`);
    return;
  }
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0].trim();
  const declared = Object.keys(documented.content ?? {});
  assert.ok(declared.includes(mediaType), `${label}: sent as ${mediaType}, documented ${declared}`);
  const schema = success?.body?.schema ?? route.errorBody?.schema ?? ErrorResponseSchema;
  const parsed = schema.safeParse(
    /^application\/(.+\+)?json$/.test(mediaType) ? JSON.parse(text) : text,
  );
  assert.ok(parsed.success, `${label}: body does not match the schema: ${text}`);
}

Deno.test("every operation that takes a body is shown working by a 2xx example, unless it is about one stored resource", () => {
  for (const route of API_ROUTES) {
    if (!route.request?.body && !route.request?.formBody) continue;
    // An unknown glossary's 404 is all an example can show without making one first.
    const pathNamesResource = /\{(?!token\})/.test(route.path);
    if (pathNamesResource) continue;
    assert.ok(
      route.examples.some((example) => example.status < 300 && example.body !== undefined),
      `${route.method} ${route.path}: no 2xx example sends its body`,
    );
  }
});

Deno.test("the OpenAPI document requires the token exactly where the service does, in each way it gives", async () => {
  await withTranslationService(async (service) => {
    const document = await fetchDocument(service.url);
    for (const route of API_ROUTES.filter((route) => route.auth === "token")) {
      const operation = document.paths[route.path][route.method];
      const ways = tokenWays(document, operation);
      assert.ok(ways.length > 0, `${route.path} documents no way to send the token`);
      // Compatibility routes refuse in their client's status (DeepL and LibreTranslate: 403).
      const refused = route.errorStatuses?.[401] ?? 401;
      assert.ok(operation.responses[String(refused)], `${route.path} documents no ${refused}`);
      if (route.path.startsWith("/v1/ws/")) continue;
      const example = route.examples[0];
      const label = (way?: TokenWay) =>
        `${route.method.toUpperCase()} ${route.path} (${
          way?.kind === "scheme" ? way.name : way?.kind ?? "no token"
        })`;
      for (const way of ways) {
        const sent = { route, example, mediaType: mediaTypeOf(operation), way };
        const accepted = await sendDocumented(service.url, { ...sent, token: service.token });
        const answer = `${label(way)}: ${await accepted.text()}`;
        assert.notEqual(accepted.status, refused, `the document's way is refused: ${answer}`);
        assert.equal(accepted.status, example.status, answer);
        const wrong = await sendDocumented(service.url, { ...sent, token: "not-the-token" });
        assert.equal(wrong.status, refused, `${label(way)}, wrong token: ${await wrong.text()}`);
      }
      if (ways.some((way) => way.kind === "path")) continue;
      const missing = await sendDocumented(service.url, {
        route,
        example,
        mediaType: mediaTypeOf(operation),
        token: service.token,
      });
      // LibreTranslate answers a missing key with 400, as its own server does.
      const status = ways.some((way) => way.kind === "body") ? 400 : refused;
      await expectBody(missing, status, route.errorBody?.schema ?? ErrorResponseSchema);
    }
  });
});

Deno.test("DeepL v2 glossary entries come as the TSV the document declares", async () => {
  await withTranslationService(async (service) => {
    const document = await fetchDocument(service.url);
    const create = API_ROUTES.find((route) =>
      route.method === "post" && route.path === "/v1/compat/deepl/v2/glossaries"
    )!;
    const created = await sendDocumented(service.url, {
      route: create,
      example: create.examples[0],
      way: tokenWays(document, document.paths[create.path].post)[0],
      token: service.token,
    });
    const { glossary_id } = await created.json();
    const entries = API_ROUTES.find((route) =>
      route.method === "get" &&
      route.path === "/v1/compat/deepl/v2/glossaries/{glossary_id}/entries"
    )!;
    const operation = document.paths[entries.path].get;
    const response = await sendDocumented(service.url, {
      route: entries,
      example: { params: { glossary_id }, status: 200 },
      way: tokenWays(document, operation)[0],
      token: service.token,
    });
    await expectDocumentedAnswer(response, entries, 200, operation.responses["200"], entries.path);
  });
});

/** The first media type of an operation's body (none without a body). */
function mediaTypeOf(operation: DocumentedOperation): string | undefined {
  return Object.keys(operation.requestBody?.content ?? {})[0];
}

/** Headers of the contract a client may read; each one it is sent must be documented. */
const CONTRACT_HEADERS = [
  "svc-api-version",
  "svc-glossary-report",
  "www-authenticate",
  "retry-after",
  "x-request-id",
];

/** What the answer's status and contract headers lack in the operation's documentation. */
function undocumented(response: Response, operation: DocumentedOperation): string[] {
  const documented = operation.responses[String(response.status)] as
    | { headers?: Record<string, unknown> }
    | undefined;
  if (!documented) return [`status ${response.status}`];
  const declared = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
  return CONTRACT_HEADERS.filter((header) =>
    response.headers.has(header) && !declared.includes(header)
  );
}

/** `/v1/glossaries/abc` → the documented path it is an instance of. */
function documentedPath(document: OpenApiDocument, path: string): string {
  return Object.keys(document.paths).find((candidate) =>
    new RegExp(`^${candidate.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path)
  )!;
}

Deno.test("every status and contract header the service answers with is documented for its operation", async () => {
  const backend = startChatCompletionsStandIn({
    modelsReply: {
      status: 429,
      body: { error: { message: "busy" } },
      headers: { "retry-after": "20" },
    },
  });
  const settings = {
    engines: { "compatible-api": { base_url: backend.baseUrl, api_key: "k", status_cache_ms: 0 } },
  };
  try {
    await withTranslationService(async (service) => {
      const document = await fetchDocument(service.url);
      const token = { "x-svc-token": service.token, "content-type": "application/json" };
      const deepl = { authorization: `DeepL-Auth-Key ${service.token}` };
      const created = await fetch(`${service.url}/v1/glossaries`, {
        method: "POST",
        headers: token,
        body: JSON.stringify({
          name: "terms",
          dictionaries: [{
            source_lang: "en",
            target_lang: "de",
            entries: "database\tDatenbank",
            entries_format: "tsv",
          }],
        }),
      });
      const { glossary_id } = await created.json();
      const translate = { source: "en", target: "de", texts: ["Open the database."] };
      const tooLarge = "x".repeat(9 << 20);
      // Each request, the status it gets and the contract header it brings (checked sent, so a
      // case that stops bringing it is seen rather than passing unread).
      const cases: [string, string, RequestInit, number, string][] = [
        [
          "POST",
          "/v1/translate",
          {
            headers: token,
            body: JSON.stringify({ ...translate, options: { glossary_id } }),
          },
          200,
          "svc-glossary-report",
        ],
        [
          "POST",
          "/v1/translate",
          {
            headers: { "content-type": "application/json" },
            body: "{}",
          },
          401,
          "www-authenticate",
        ],
        [
          "POST",
          "/v1/translate",
          {
            headers: token,
            body: JSON.stringify({ ...translate, options: { engine: "compatible-api" } }),
          },
          503,
          "retry-after",
        ],
        [
          "POST",
          "/v1/compat/deepl/v2/translate",
          {
            headers: deepl,
            body: new URLSearchParams({
              text: "Open the database.",
              source_lang: "EN",
              target_lang: "DE",
              glossary_id,
            }),
          },
          200,
          "svc-glossary-report",
        ],
        [
          "POST",
          "/v1/compat/deepl/v2/translate",
          {
            body: new URLSearchParams({ text: "x", target_lang: "DE" }),
          },
          403,
          "www-authenticate",
        ],
        ["GET", "/v1/health", {}, 200, "svc-api-version"],
        // Every body goes through a size limit: over it is 413 on each operation that takes one.
        ["PATCH", `/v1/glossaries/${glossary_id}`, { headers: token, body: tooLarge }, 413, ""],
        ["POST", "/v1/compat/deepl/v3/glossaries", { headers: deepl, body: tooLarge }, 413, ""],
        ["POST", "/v1/compat/deepl/v2/glossaries", { headers: deepl, body: tooLarge }, 413, ""],
      ];
      const missing: string[] = [];
      for (const [method, path, init, status, header] of cases) {
        const response = await fetch(`${service.url}${path}`, { method, ...init });
        const label = `${method} ${path}`;
        const text = await response.text();
        assert.equal(response.status, status, `${label}: ${text}`);
        if (header) assert.ok(response.headers.has(header), `${label}: no ${header}`);
        const operation = document.paths[documentedPath(document, path)][method.toLowerCase()];
        missing.push(...undocumented(response, operation).map((what) => `${label}: ${what}`));
      }
      assert.deepEqual(missing, [], "answered but not documented");
    }, { settings });
  } finally {
    await backend.stop();
  }
});

Deno.test("the API description of GET /v1/ws/translate names binary frames and every close code the README's WebSocket section names", async () => {
  const readme = await Deno.readTextFile(new URL("../../../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("\n### WebSocket\n"));
  const closes = section.slice(section.indexOf("The server closes with"));
  const codes = closes.slice(0, closes.indexOf("\n\n")).match(/\b[14]\d{3}\b/g) ?? [];
  assert.deepEqual(codes.toSorted(), ["1001", "1008", "1009", "4401"]);
  await withTranslationService(async (service) => {
    const document = await fetchDocument(service.url);
    const operation = document.paths["/v1/ws/translate"].get as { description?: string };
    const description = operation.description ?? "";
    for (const code of codes) assert.match(description, new RegExp(`\\b${code}\\b`), code);
    assert.match(description, /binary/);
    assert.match(description, /API (is )?disabled/);
  });
});
