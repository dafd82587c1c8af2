/**
 * How each compatibility route reads a body beyond its fields: a compressed body (no DeepL,
 * LibreTranslate or DeepLX client sends one; deepl-node sends plain forms) is refused naming its
 * Content-Encoding, not as text that "is not valid UTF-8"; a body over the limit is refused in the
 * shape and status each client reads; a JSON type with parameters or another case is JSON.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import type { z } from "zod";
import {
  DeepLErrorSchema,
  DeepLTranslateResponseSchema,
} from "../../../../schemas/compat/deepl.ts";
import { DeepLXErrorSchema, DeepLXResponseSchema } from "../../../../schemas/compat/deeplx.ts";
import {
  LibreErrorSchema,
  LibreTranslateResponseSchema,
} from "../../../../schemas/compat/libretranslate.ts";
import { expectBody } from "../../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

interface Route {
  name: string;
  url: (service: TestService) => string;
  headers: (service: TestService) => Record<string, string>;
  body: (service: TestService) => Record<string, unknown>;
  ok: z.ZodType;
  error: z.ZodType;
  /** The status a body over the limit gets: the one the family's clients read as "too much". */
  tooLarge: number;
  message: (body: unknown) => string;
}

const ROUTES: Route[] = [
  {
    name: "DeepL",
    url: (service) => `${service.url}/v1/compat/deepl/v2/translate`,
    headers: (service) => ({ authorization: `DeepL-Auth-Key ${service.token}` }),
    body: () => ({ text: ["Hallo Welt"], source_lang: "DE", target_lang: "EN-US" }),
    ok: DeepLTranslateResponseSchema,
    error: DeepLErrorSchema,
    tooLarge: 413,
    message: (body) => (body as { message: string }).message,
  },
  {
    name: "LibreTranslate",
    url: (service) => `${service.url}/v1/compat/libre/translate`,
    headers: () => ({}),
    body: (service) => ({ q: "Hallo Welt", source: "de", target: "en", api_key: service.token }),
    ok: LibreTranslateResponseSchema,
    error: LibreErrorSchema,
    tooLarge: 400,
    message: (body) => (body as { error: string }).error,
  },
  {
    name: "DeepLX",
    url: (service) => `${service.url}/v1/compat/deeplx/translate?token=${service.token}`,
    headers: () => ({}),
    body: () => ({ text: "Hallo Welt", source_lang: "DE", target_lang: "EN" }),
    ok: DeepLXResponseSchema,
    error: DeepLXErrorSchema,
    tooLarge: 400,
    message: (body) => (body as { message: string }).message,
  },
];

function post(service: TestService, route: Route, headers: Record<string, string>, body: BodyInit) {
  return fetch(route.url(service), {
    method: "POST",
    headers: { ...route.headers(service), ...headers },
    body,
  });
}

for (const route of ROUTES) {
  Deno.test(`${route.name}: a gzip-encoded body is a 400 naming its Content-Encoding`, async () => {
    await withService(async (service) => {
      const json = JSON.stringify(route.body(service));
      for (const coding of ["gzip", "GZIP", "deflate, gzip"]) {
        const response = await post(
          service,
          route,
          { "content-type": "application/json", "content-encoding": coding },
          gzipSync(json),
        );
        const message = route.message(await expectBody(response, 400, route.error));
        assert.match(message, /Content-Encoding/, message);
        assert.ok(message.toLowerCase().includes(coding.toLowerCase()), message);
      }
      // identity is no coding at all.
      const plain = await post(
        service,
        route,
        { "content-type": "application/json", "content-encoding": "identity" },
        json,
      );
      await expectBody(plain, 200, route.ok);
      assert.equal(service.history.list({ limit: 10 }).entries.length, 1);
    });
  });

  Deno.test(`${route.name}: a body over 1 MiB is refused in the client's shape`, async () => {
    await withService(async (service) => {
      const big = JSON.stringify({ ...route.body(service), padding: "x".repeat(1024 * 1024) });
      const response = await post(service, route, { "content-type": "application/json" }, big);
      const message = route.message(await expectBody(response, route.tooLarge, route.error));
      assert.match(message, /too large/);
    });
  });

  Deno.test(`${route.name}: a JSON type with a charset or in upper case is read as JSON`, async () => {
    await withService(async (service) => {
      for (const type of ["application/json; charset=utf-8", "Application/JSON"]) {
        const response = await post(
          service,
          route,
          { "content-type": type },
          JSON.stringify(route.body(service)),
        );
        await expectBody(response, 200, route.ok);
      }
    });
  });
}
