/**
 * Two services on one data directory (a second `tolk serve` on another port, or one started by
 * another user session): each sees what the other writes, at its next request.
 */
import assert from "node:assert/strict";
import { dataRequest } from "../../support/data_requests.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { withTempDir } from "../../support/temp_dir.ts";
import { tolkFolders } from "../../support/serve_process.ts";
import { runTolkProcess, startTolkServer } from "../../support/tolk_process.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService,
} from "../../support/translation_service.ts";

/** The `Svc-Glossary-Report` of translating `text` en → de with the glossary on the built-in engine. */
async function glossaryReport(service: TestService, glossaryId: string, text: string) {
  const response = await postTranslate(service, {
    source: "en",
    target: "de",
    texts: [text],
    options: { glossary_id: glossaryId },
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
  return response.headers.get("svc-glossary-report");
}

Deno.test("a glossary changed through another service on the same data directory is used as changed", async () => {
  await withTempDir("tolk-shared-data-", async (dataDir) => {
    await withTranslationService(async (first) => {
      const { glossary_id } = await createGlossary(first, "Shared", ["en", "de"], "tolk\t\n");
      const text = "Open the database in tolk.";
      assert.equal(await glossaryReport(first, glossary_id, text), "matched=1; applied=1");
      await withTranslationService(async (second) => {
        const patched = await dataRequest(second, "PATCH", `/v1/glossaries/${glossary_id}`, {
          dictionaries: [{
            source_lang: "en",
            target_lang: "de",
            entries: "database\tDatenbank\ntolk\t\n",
            entries_format: "tsv",
          }],
        });
        assert.equal(patched.status, 200, await patched.text());
      }, { dataDir });
      assert.match(
        await glossaryReport(first, glossary_id, text) ?? "",
        /^matched=2;/,
        "the first service uses the dictionary as the second one left it",
      );
    }, { dataDir });
  });
});

/** A request to a `tolk serve` process's data routes; resolves to the status. */
async function send(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { "x-svc-token": token, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("two tolk serve processes on one data directory take parallel writes with no refusal", async () => {
  await withTempDir("tolk-shared-data-", async (dir) => {
    const env = tolkFolders(dir);
    const token = (await runTolkProcess(["api", "enable"], env)).stdout.trim();
    const servers = [
      await startTolkServer(["serve", "--port", "0"], env),
      await startTolkServer(["serve", "--port", "0"], env),
    ];
    try {
      const writes = servers.flatMap(({ url }, s) =>
        Array.from({ length: 40 }, (_, i) => [
          send(url, token, "POST", "/v1/memory/entries", {
            source_lang: "en",
            target_lang: "de",
            entries: [{ source: `entry ${s}-${i} ${"x".repeat(2000)}`, target: `Eintrag ${i}` }],
          }),
          send(url, token, "POST", "/v1/glossaries", {
            name: `g${s}-${i}`,
            dictionaries: [{
              source_lang: "en",
              target_lang: "de",
              entries: `term${i}\tBegriff${i}\n`,
              entries_format: "tsv",
            }],
          }),
          // A delete erases: it empties the write-ahead log, which the other process reads.
          send(url, token, "DELETE", "/v1/history"),
        ]).flat()
      );
      const statuses = await Promise.all(writes);
      assert.deepEqual(statuses.filter((status) => status >= 300), []);
      const memory = await fetch(`${servers[1].url}/v1/memory/entries?limit=200`, {
        headers: { "x-svc-token": token },
      });
      assert.equal((await memory.json()).data.length, 80);
    } finally {
      for (const server of servers) assert.equal(await server.stop(), 0);
    }
    const logs = servers.flatMap((server) => server.stderr);
    assert.deepEqual(logs.filter((line) => /locked|storage_unavailable| 5\d\d /.test(line)), []);
  });
});
