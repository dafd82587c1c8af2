/**
 * Faults of the data directory (issue 15, points 7 and 8): a full disk never fails a
 * translation, and a read-only data directory stops `tolk serve` with one line and exit 2.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { TranslateResponseSchema } from "../../schemas/translation.ts";
import { expectBody } from "../support/http_assertions.ts";
import { fillFilesystem, mountTmpfs } from "../support/small_filesystem.ts";
import { runTolkProcess, serveArgs } from "../support/tolk_process.ts";
import {
  postTranslate,
  type TestService,
  withTranslationService,
} from "../support/translation_service.ts";

const LONG_ENGLISH = "The history row of this request is large. ".repeat(180);

async function translateMany(service: TestService, count: number) {
  for (let i = 0; i < count; i++) {
    // source = target: answered without an engine, so only the history write can fail.
    await expectBody(
      await postTranslate(service, { source: "en", target: "en", texts: [`${i} ${LONG_ENGLISH}`] }),
      200,
      TranslateResponseSchema,
    );
  }
}

function failureLines(service: TestService) {
  return service.logs.filter((line) => line.startsWith("history write failed"));
}

Deno.test("a full database (max_page_count) fails no translation and logs the history failure once", async () => {
  await withTranslationService(async (service) => {
    await translateMany(service, 21);
    const lines = failureLines(service);
    assert.equal(lines.length, 1, service.logs.join("\n"));
    assert.match(lines[0], /full/);
    assert.ok(lines[0].includes(service.dataDir), "the line names the database file");
    assert.ok(!service.logs.some((line) => line.includes("unexpected")));
    assert.ok(!lines[0].includes("history row of this request"), "no request text in the log");
  }, { database: { maxPageCount: 24 } });
});

Deno.test("a full filesystem (a 512 KiB tmpfs, filled) fails no translation and logs once", {
  ignore: Deno.uid() !== 0,
}, async () => {
  const tmpfs = await mountTmpfs(512);
  if (!tmpfs) throw new Error("mount tmpfs failed although running as root");
  try {
    const dataDir = join(tmpfs.path, "data");
    await withTranslationService(async (service) => {
      await fillFilesystem(tmpfs.path);
      await translateMany(service, 21);
      const lines = failureLines(service);
      assert.equal(lines.length, 1, service.logs.join("\n"));
      assert.match(lines[0], /full/);
    }, { dataDir });
  } finally {
    await tmpfs.unmount();
  }
});

Deno.test("tolk serve on a read-only data directory prints one line naming it and exits 2", async () => {
  const tmpfs = await mountTmpfs(64);
  const dir = tmpfs?.path ?? await Deno.makeTempDir({ prefix: "tolk-readonly-" });
  const dataDir = join(dir, "data");
  await Deno.mkdir(dataDir);
  const config = join(await Deno.makeTempDir({ prefix: "tolk-readonly-config-" }), "settings.json");
  try {
    // As root, permission bits do not stop writes: a read-only mount does.
    if (tmpfs) await tmpfs.makeReadOnly();
    else await Deno.chmod(dataDir, 0o555);
    const result = await runTolkProcess(serveArgs({ config, dataDir }));
    assert.equal(result.code, 2, result.stderr);
    const lines = result.stderr.trim().split("\n").filter((line) => line.startsWith("tolk serve:"));
    assert.equal(lines.length, 1, result.stderr);
    assert.ok(lines[0].includes(dataDir));
    assert.match(lines[0], /read-only/);
    assert.ok(!/\n\s+at /.test(result.stderr), "no stack trace");
  } finally {
    if (tmpfs) await tmpfs.unmount();
    else {
      await Deno.chmod(dataDir, 0o755);
      await Deno.remove(dir, { recursive: true });
    }
  }
});
