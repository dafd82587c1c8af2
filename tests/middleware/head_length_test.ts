/**
 * HEAD answers carry their GET's Content-Length, on both services, over real sockets.
 */
import assert from "node:assert/strict";
import { withTranslationService } from "../support/translation_service.ts";
import { NATIVE_SANITIZERS, startInferApp } from "../support/infer_app.ts";

async function getLength(url: string, headers: Record<string, string>) {
  const get = await fetch(url, { headers });
  const bytes = (await get.arrayBuffer()).byteLength;
  assert.ok(bytes > 0, url);
  return { status: get.status, bytes };
}

/**
 * A GET before and one after the HEAD: `/v1/health`'s `uptime_s` may gain a digit between two
 * requests (9 → 10 made CI fail), so the HEAD's length must be one of the two GETs' lengths.
 */
async function assertHeadLength(url: string, headers: Record<string, string> = {}) {
  const before = await getLength(url, headers);
  const head = await fetch(url, { method: "HEAD", headers });
  const after = await getLength(url, headers);
  assert.equal(head.status, before.status, url);
  assert.ok(
    [String(before.bytes), String(after.bytes)].includes(head.headers.get("content-length") ?? ""),
    `${url}: HEAD says ${
      head.headers.get("content-length")
    }, GETs had ${before.bytes} and ${after.bytes}`,
  );
  assert.equal((await head.arrayBuffer()).byteLength, 0, url);
}

Deno.test("tolk serve: HEAD says the length its GET has", async () => {
  await withTranslationService(async (service) => {
    for (const path of ["/v1/openapi.json", "/v1/health", "/v1/capabilities"]) {
      await assertHeadLength(`${service.url}${path}`);
    }
    await assertHeadLength(`${service.url}/v1/history`, { "x-svc-token": service.token });
  });
});

Deno.test({
  name: "tolk infer: HEAD says the length its GET has",
  ...NATIVE_SANITIZERS,
  async fn() {
    const app = await startInferApp();
    try {
      for (const path of ["/health", "/v1/models", "/v1/status"]) {
        await assertHeadLength(`${app.baseUrl}${path}`);
      }
    } finally {
      await app.stop();
    }
  },
});
