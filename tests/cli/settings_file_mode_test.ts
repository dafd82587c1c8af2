/**
 * A settings file holding the API token that other users of the machine may read (mode 0644, as
 * an editor or `cp` leaves a hand-made file) is said on stderr by `tolk serve` and
 * `tolk api`/`tolk token`, with the command that fixes it, which works as printed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAsReader } from "../support/readme_commands.ts";
import { runTolkProcess, serveArgs, startTolkServer } from "../support/tolk_process.ts";
import { TEST_TOKEN } from "../support/translation_service.ts";

/** The command between backticks at the end of the line of `text` that names `path`. */
function fix(text: string, path: string): string {
  const line = text.split("\n").find((line) => line.includes(path) && line.includes("readable"));
  assert.ok(line, `no line about ${path} being readable in: ${text}`);
  return line.match(/`([^`]+)`$/)![1];
}

Deno.test("a settings file with the token that others may read is said, with a chmod that fixes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-mode-" });
  const config = join(dir, "settings.json");
  try {
    await Deno.writeTextFile(config, JSON.stringify({ api: { enabled: true, token: TEST_TOKEN } }));
    await Deno.chmod(config, 0o644);
    const shown = await runTolkProcess(["token", "show", "--config", config]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, `${TEST_TOKEN}\n`, "stdout keeps the token alone");
    const command = fix(shown.stderr, config);

    const server = await startTolkServer(serveArgs({ config, dataDir: join(dir, "data") }));
    try {
      for (let i = 0; i < 40 && !server.stderr.some((line) => line.includes("readable")); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(fix(server.stderr.join("\n"), config), command);
    } finally {
      await server.stop();
    }

    const fixed = await runAsReader(command, dir);
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.equal((await Deno.stat(config)).mode! & 0o777, 0o600);
    const again = await runTolkProcess(["token", "show", "--config", config]);
    assert.equal(again.stderr, "", "nothing to say once fixed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a settings file others may read but without a token is not a warning", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-mode-" });
  const config = join(dir, "settings.json");
  try {
    await Deno.writeTextFile(config, JSON.stringify({ api: { enabled: false, token: null } }));
    await Deno.chmod(config, 0o644);
    const shown = await runTolkProcess(["token", "show", "--config", config]);
    assert.equal(shown.code, 1);
    assert.ok(!shown.stderr.includes("readable"), shown.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
