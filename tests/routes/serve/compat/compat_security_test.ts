import assert from "node:assert/strict";
import { join } from "node:path";
import { LibreDetectResponseSchema } from "../../../../schemas/compat/libretranslate.ts";
import { expectBody, postJson } from "../../../support/http_assertions.ts";
import { runTolkProcess, startTolkServer } from "../../../support/tolk_process.ts";
import {
  FIXTURE_MODELS_DIR,
  withTranslationService as withService,
} from "../../../support/translation_service.ts";

const EXTENSION = "chrome-extension://abcdefghijklmnopabcdefghijklmnop";

/** A compat route of each family, as a browser extension would call it. */
const COMPAT_PATHS = [
  "/v1/compat/deepl/v2/translate",
  "/v1/compat/libre/translate",
  "/v1/compat/deeplx/translate",
  "/v1/compat/t/some-token/libre/translate",
  "/v1/compat/t/some-token/deeplx/translate",
];

Deno.test("compat routes answer a chrome-extension preflight with any origin and the asked headers", async () => {
  await withService(async (service) => {
    for (const path of COMPAT_PATHS) {
      const response = await fetch(`${service.url}${path}`, {
        method: "OPTIONS",
        headers: {
          origin: EXTENSION,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,content-type",
        },
      });
      await response.body?.cancel();
      assert.equal(response.status, 204, path);
      assert.equal(response.headers.get("access-control-allow-origin"), "*", path);
      assert.match(response.headers.get("access-control-allow-headers")!, /authorization/, path);
      assert.match(response.headers.get("access-control-allow-methods")!, /POST/, path);
      assert.equal(response.headers.get("access-control-allow-credentials"), null, path);
    }
  });
});

Deno.test("compat answers carry CORS headers, refusals included, so extensions can read the error", async () => {
  await withService(async (service) => {
    const response = await postJson(`${service.url}/v1/compat/libre/translate`, {
      q: "Hallo",
      source: "de",
      target: "en",
      api_key: "wrong",
    }, { origin: EXTENSION });
    await response.body?.cancel();
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
  });
});

Deno.test("no CORS outside the compat routes: not on /v1/translate, never on the settings page", async () => {
  await withService(async (service) => {
    for (const path of ["/v1/translate", "/settings", "/v1/capabilities"]) {
      for (const method of ["OPTIONS", "GET"]) {
        const response = await fetch(`${service.url}${path}`, {
          method,
          headers: { origin: EXTENSION, "access-control-request-method": "POST" },
        });
        await response.body?.cancel();
        assert.equal(
          response.headers.get("access-control-allow-origin"),
          null,
          `${method} ${path}`,
        );
      }
    }
  });
});

Deno.test("tolk serve never logs a token sent in a compat path or query, right or wrong", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-compat-log-" });
  try {
    const env = {
      TOLK_CONFIG: join(dir, "settings.json"),
      TOLK_DATA_DIR: dir,
      TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
    };
    const token = (await runTolkProcess(["api", "enable"], env)).stdout.trim();
    const wrong = "wrong-token-QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ";
    const server = await startTolkServer(["serve", "--port", "0"], env);
    try {
      const detect = { q: "Guten Morgen, wie geht es dir?" };
      await expectBody(
        await postJson(`${server.url}/v1/compat/t/${token}/libre/detect`, detect),
        200,
        LibreDetectResponseSchema,
      );
      const requests = [
        postJson(`${server.url}/v1/compat/t/${wrong}/libre/detect`, detect),
        postJson(`${server.url}/v1/compat/deeplx/translate?token=${wrong}`, { text: "x" }),
        postJson(`${server.url}/v1/compat/t/${token}/deeplx/translate?token=${token}`, {}),
        fetch(`${server.url}/v1/compat/t/${token}/libre/nothing?api_key=${token}`),
      ];
      for (const response of await Promise.all(requests)) await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 300)); // the log is flushed every 50 ms
    } finally {
      assert.equal(await server.stop(), 0);
    }
    const output = server.stderr.join("\n");
    const compatLines = server.stderr.filter((line) => line.includes(" /v1/compat/"));
    assert.equal(compatLines.length, 5, output);
    for (const line of compatLines) assert.match(line, / \/v1\/compat\/… \d{3} \d+ms$/);
    assert.ok(!output.includes(token), "the token is not in the service output");
    assert.ok(!output.includes(wrong), "a wrong token is not in the service output either");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
