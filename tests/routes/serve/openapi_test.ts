import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { z } from "zod";
import { API_ROUTES } from "../../../schemas/api_routes.ts";
import { OpenApiDocumentSchema } from "../../../schemas/translation_routes.ts";
import { ErrorResponseSchema } from "../../../schemas/translation.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withTranslationService } from "../../support/translation_service.ts";

type Operations = Record<string, { responses: Record<string, unknown>; security: unknown[] }>;

async function fetchDocument(url: string) {
  const response = await fetch(`${url}/v1/openapi.json`);
  return await expectBody(response, 200, OpenApiDocumentSchema) as
    & z.infer<
      typeof OpenApiDocumentSchema
    >
    & { paths: Record<string, Operations> };
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

Deno.test("the OpenAPI document lists exactly the /v1 routes the app serves", async () => {
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
  });
});

Deno.test("every example request of the document is answered as documented", async () => {
  await withTranslationService(async (service) => {
    const document = await fetchDocument(service.url);
    for (const route of API_ROUTES) {
      const operation = document.paths[route.path][route.method];
      assert.ok(route.examples.length > 0, `${route.method} ${route.path} has no example`);
      for (const example of route.examples) {
        const label = `${route.method.toUpperCase()} ${route.path} → ${example.status}`;
        assert.ok(operation.responses[String(example.status)], `${label}: status not documented`);
        let path = route.path;
        for (const [name, value] of Object.entries(example.params ?? {})) {
          path = path.replace(`{${name}}`, encodeURIComponent(value));
        }
        const query = example.query ? `?${new URLSearchParams(example.query)}` : "";
        const response = await fetch(`${service.url}${path}${query}`, {
          method: route.method.toUpperCase(),
          headers: {
            ...(route.auth === "token" ? { "x-svc-token": service.token } : {}),
            ...(example.body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: example.body === undefined ? undefined : JSON.stringify(example.body),
        });
        const success = route.responses[example.status];
        if (success && !success.body) {
          assert.equal(response.status, example.status, label);
          await response.body?.cancel();
          continue;
        }
        const schema = success?.body?.schema ?? route.errorBody?.schema ?? ErrorResponseSchema;
        await expectBody(response, example.status, schema);
      }
    }
  });
});

Deno.test("the OpenAPI document requires the token exactly where the service does", async () => {
  await withTranslationService(async (service) => {
    const document = await fetchDocument(service.url);
    for (const route of API_ROUTES.filter((route) => route.auth === "token")) {
      const operation = document.paths[route.path][route.method];
      assert.ok(operation.security.length > 0, `${route.path} documents no security`);
      // Compatibility routes refuse in their client's status (DeepL and LibreTranslate: 403).
      const refused = route.errorStatuses?.[401] ?? 401;
      assert.ok(operation.responses[String(refused)], `${route.path} documents no ${refused}`);
      if (route.path.startsWith("/v1/ws/")) continue;
      const example = route.examples[0];
      const response = await fetch(`${service.url}${route.path}`, {
        method: route.method.toUpperCase(),
        headers: { "content-type": "application/json" },
        body: example.body === undefined ? undefined : JSON.stringify(example.body),
      });
      if (route.errorBody) {
        // LibreTranslate answers a missing key with 400, as its own server does (in a path, a
        // placeholder token is a wrong one).
        const status = route.path.startsWith("/v1/compat/libre/") ? 400 : refused;
        await expectBody(response, status, route.errorBody.schema);
        continue;
      }
      await expectBody(response, 401, ErrorResponseSchema);
    }
  });
});
