/**
 * `tolk token rotate` leaves the token in the settings file alone: no backup or temporary file
 * beside it keeps a copy of the old one, nor of a new one a failed write never put in place.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { indexOfBytes } from "../support/bytes_search.ts";
import { fillFilesystem, mountTmpfs } from "../support/small_filesystem.ts";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

const OLD_TOKEN = "old-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/** A settings file holding {@link OLD_TOKEN}, `padding` characters long past it. */
async function writeSettings(config: string, padding = 0): Promise<void> {
  const settings = { api: { enabled: true, token: OLD_TOKEN }, note: "x".repeat(padding) };
  await Deno.writeTextFile(config, JSON.stringify(settings, null, 2) + "\n", { mode: 0o600 });
}

/** The names of the files of `dir` holding `text`. */
async function filesHolding(dir: string, text: string): Promise<string[]> {
  const needle = new TextEncoder().encode(text);
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (indexOfBytes(await Deno.readFile(join(dir, entry.name)), needle) >= 0) {
      names.push(entry.name);
    }
  }
  return names;
}

Deno.test("tolk token rotate leaves the old token in no file of the settings folder", async () => {
  await withTempDir("tolk-token-rotate-", async (dir) => {
    const config = join(dir, "settings.json");
    await writeSettings(config);
    const rotated = await runTolkProcess(["token", "rotate", "--config", config]);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.deepEqual(await filesHolding(dir, OLD_TOKEN), []);
    assert.deepEqual(await filesHolding(dir, rotated.stdout.trim()), ["settings.json"]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["settings.json"]);
  });
});

Deno.test("tolk token rotate on a full disk leaves no temporary file beside the settings file", async () => {
  const tmpfs = await mountTmpfs(256);
  assert.ok(tmpfs, "this test needs a tmpfs (root on Linux)");
  try {
    const config = join(tmpfs.path, "settings.json");
    // Longer than the one page left free: the temporary file gets the new token, then no room.
    await writeSettings(config, 12_000);
    await fillFilesystem(tmpfs.path);
    await Deno.truncate(
      join(tmpfs.path, "filler"),
      (await Deno.stat(join(tmpfs.path, "filler"))).size - 4096,
    );
    const rotated = await runTolkProcess(["token", "rotate", "--config", config]);
    assert.equal(rotated.code, 2, rotated.stderr);
    assert.match(rotated.stderr, /cannot be written/);
    assert.equal(rotated.stdout, "");
    // The new token is in no file: the one that was half written held it.
    assert.deepEqual(await filesHolding(tmpfs.path, '"token"'), ["settings.json"]);
    const names = [...Deno.readDirSync(tmpfs.path)].map((entry) => entry.name).sort();
    assert.deepEqual(names, ["filler", "settings.json"]);
    assert.deepEqual(await filesHolding(tmpfs.path, OLD_TOKEN), ["settings.json"]);
  } finally {
    await tmpfs.unmount();
  }
});

Deno.test("tolk token rotate under the settings folder's permissions, the file a link to another folder, says on stderr that the target keeps the old token", async () => {
  await withTempDir("tolk-token-link-", async (dir) => {
    const configDir = join(dir, "config");
    const dotfiles = join(dir, "dotfiles");
    await Deno.mkdir(configDir);
    await Deno.mkdir(dotfiles);
    await writeSettings(join(dotfiles, "settings.json"));
    const config = join(configDir, "settings.json");
    await Deno.symlink(join(dotfiles, "settings.json"), config);
    // The permission table grants the link's folder only: the target's cannot be written.
    const rotated = await runTolkProcess(["token", "rotate", "--config", config]);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stderr, /is a link to .*dotfiles.*still holds the previous settings/);
    assert.deepEqual(await filesHolding(configDir, rotated.stdout.trim()), ["settings.json"]);
  });
});
