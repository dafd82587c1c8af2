import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

Deno.test("tolk api enable and token rotate say on stderr when they create the settings file (a mistyped --config shows)", async () => {
  await withTempDir("tolk-settings-file-test-", async (dir) => {
    const config = join(dir, "settings.json");
    const created = `settings file ${config} did not exist; created it\n`;
    const first = await runTolkProcess(["api", "enable", "--config", config]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^[A-Za-z0-9_-]{43}\n$/, "the token alone on stdout");
    assert.equal(first.stderr, created);
    const again = await runTolkProcess(["api", "enable", "--config", config]);
    assert.equal(again.stdout, first.stdout, "the same token");
    assert.equal(again.stderr, "");
    // Removed under a running service, say: the new token is a new file's, and that is said.
    await Deno.remove(config);
    const rotated = await runTolkProcess(["token", "rotate", "--config", config]);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.equal(rotated.stderr, created);
    const shown = await runTolkProcess(["token", "show", "--config", join(dir, "typo.json")]);
    assert.equal(shown.code, 1);
    assert.doesNotMatch(shown.stderr, /created/, "show creates nothing");
  });
});
