import assert from "node:assert/strict";
import { join } from "node:path";
import { mountTmpfs } from "../support/small_filesystem.ts";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

/** Commands that read the settings file first, each refusing an unusable one the same way. */
const SETTINGS_COMMANDS = [
  ["serve", "--port", "0"],
  ["api", "enable"],
  ["token", "show"],
];

for (const command of SETTINGS_COMMANDS) {
  Deno.test(`tolk ${command[0]} with a directory as the settings file says so in one line with the remedy, exit 2`, async () => {
    await withTempDir("tolk-settings-errors-", async (dir) => {
      const config = join(dir, "settings.json");
      await Deno.mkdir(config);
      const result = await runTolkProcess([...command, "--config", config], {
        TOLK_DATA_DIR: dir,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(
        result.stderr,
        `settings file ${config}: is a directory, not a file; ` +
          "name a settings file with --config or TOLK_CONFIG\n",
      );
      assert.equal(result.stdout, "");
    });
  });
}

Deno.test("tolk api enable with a settings file it cannot write says why in one line with the remedy, without the temporary file's name", async () => {
  const tmpfs = await mountTmpfs(256);
  // As root, permission bits do not stop writes: only a read-only mount does.
  assert.ok(tmpfs, "this test needs a tmpfs (root on Linux)");
  try {
    await tmpfs.makeReadOnly();
    const config = join(tmpfs.path, "settings.json");
    const result = await runTolkProcess(["api", "enable", "--config", config]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr,
      `settings file ${config}: cannot be written (Read-only file system (os error 30)); ` +
        "name a writable one with --config or TOLK_CONFIG\n",
    );
    assert.equal(result.stdout, "");
  } finally {
    await tmpfs.unmount();
  }
});
