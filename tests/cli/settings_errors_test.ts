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

/**
 * Hand-written values of the wrong kind: each is one line naming the field in words a user acts
 * on. They read in zod's own words ("api.token Too small: expected string to have >=32
 * characters", "Invalid input: expected boolean, received string", "Invalid option: …").
 */
const REFUSED_VALUES = [
  {
    settings: { api: { enabled: true, token: "my-secret" } },
    says: "api.token must have at least 32 characters",
  },
  {
    settings: { api: { enabled: "yes" } },
    says: "api.enabled must be a boolean, not a string",
  },
  { settings: { api: null }, says: "api must be an object, not null" },
  {
    settings: { engines: { order: ["ollama"] } },
    says: "engines.order.0 must be one of local-llm, engine-one, engine-two, compatible-api",
  },
];

for (const { settings, says } of REFUSED_VALUES) {
  Deno.test(`tolk serve with ${JSON.stringify(settings)} says "${says}", exit 2`, async () => {
    await withTempDir("tolk-settings-values-", async (dir) => {
      const config = join(dir, "settings.json");
      await Deno.writeTextFile(config, JSON.stringify(settings), { mode: 0o600 });
      const result = await runTolkProcess(["serve", "--port", "0", "--config", config], {
        TOLK_DATA_DIR: dir,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr, `settings file ${config}: ${says}\n`);
    });
  });
}
