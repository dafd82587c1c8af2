/**
 * engine-one's `keep_alive` as Ollama reads it: a number of seconds, or a Go duration string
 * (`time.ParseDuration`: "5m", "1h30m", "-1m"). Ollama refuses every /api/chat whose string is not
 * one ("-1", OLLAMA_KEEP_ALIVE's integer form, is "time: missing unit in duration"; "1d", as Go
 * has no days), so such a value in the settings file stops `tolk` (serve, token, api) at start-up, naming the
 * key, instead of failing every translation with Ollama's HTTP 400.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess } from "../support/tolk_process.ts";
import { ENGINE_ONE, translateOk } from "../support/chat_engine_checks.ts";
import { withStandInService } from "../support/stand_in_service.ts";

for (const keepAlive of ["-1", "1d", "5 minutes", "m"]) {
  Deno.test(`tolk refuses keep_alive "${keepAlive}" (no duration Ollama reads) in one line, exit 2`, async () => {
    await withTempDir("tolk-keep-alive-", async (dir) => {
      const config = join(dir, "settings.json");
      await Deno.writeTextFile(
        config,
        JSON.stringify({ engines: { "engine-one": { keep_alive: keepAlive } } }),
      );
      const result = await runTolkProcess(["token", "show", "--config", config], {
        TOLK_DATA_DIR: dir,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
      assert.match(result.stderr, /engines\.engine-one\.keep_alive .*"5m"/);
    });
  });
}

Deno.test("keep_alive forms Ollama reads reach /api/chat as written", async () => {
  for (const keepAlive of ["1h30m", "-1m", "0", "1.5h", "300ms", -1, 600]) {
    const options = { engineOne: { keep_alive: keepAlive } };
    await withStandInService(options, async (service, runner) => {
      await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag"] });
      assert.equal(runner.chats[0].keep_alive, keepAlive);
    });
  }
});
