import assert from "node:assert/strict";
import { join } from "node:path";
import { withServeProcess } from "../support/serve_process.ts";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess, startTolkServer, tolkArgv } from "../support/tolk_process.ts";
import { closedPortUrl, FIXTURE_MODELS_DIR } from "../support/translation_service.ts";

Deno.test("tolk settings prints a one-time link to the running service, even with the API disabled", async () => {
  await withTempDir("tolk-settings-cli-test-", async (dir) => {
    const env = {
      TOLK_CONFIG: join(dir, "settings.json"),
      TOLK_DATA_DIR: dir,
      TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
    };
    const server = await startTolkServer(["serve", "--port", "0"], env);
    try {
      const port = new URL(server.url).port;
      const result = await runTolkProcess(["settings", "--port", port], env);
      assert.equal(result.code, 0, result.stderr);
      const match = result.stdout.match(
        new RegExp(`^http://127\\.0\\.0\\.1:${port}/settings\\?code=([A-Za-z0-9_-]{43})\\n$`),
      );
      assert.ok(match, result.stdout);
      const link = result.stdout.trim();
      const first = await fetch(link, { redirect: "manual" });
      await first.body?.cancel();
      assert.equal(first.status, 303);
      assert.match(first.headers.get("set-cookie") ?? "", /HttpOnly/);
      const second = await fetch(link, { redirect: "manual" });
      await second.body?.cancel();
      assert.equal(second.status, 401, "the link works once");

      const settings = JSON.parse(Deno.readTextFileSync(env.TOLK_CONFIG));
      assert.equal(settings.api.enabled, false);
      const key = settings.settings_page.link_key;
      assert.match(key, /^[A-Za-z0-9_-]{43}$/);
      assert.ok(!server.stderr.join("\n").includes(match[1]), "no code in the logs");
      assert.ok(!server.stderr.join("\n").includes(key), "no key in the logs");
      assert.equal((Deno.statSync(env.TOLK_CONFIG).mode ?? 0) & 0o077, 0, "file is private");
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});

Deno.test("tolk settings says so when no service is running", async () => {
  await withTempDir("tolk-settings-cli-test-", async (dir) => {
    const config = join(dir, "settings.json");
    Deno.writeTextFileSync(config, "{}");
    const port = new URL(closedPortUrl()).port;
    const result = await runTolkProcess(["settings", "--port", port], { TOLK_CONFIG: config });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, new RegExp(`no tolk service answers on 127\\.0\\.0\\.1:${port}`));
  });
});

Deno.test("tolk settings says so when the service uses another settings file", async () => {
  await withTempDir("tolk-settings-cli-test-", async (dir) => {
    const env = {
      TOLK_CONFIG: join(dir, "served.json"),
      TOLK_DATA_DIR: dir,
      TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
    };
    const server = await startTolkServer(["serve", "--port", "0"], env);
    try {
      const other = join(dir, "other.json");
      Deno.writeTextFileSync(other, "{}");
      const port = new URL(server.url).port;
      const result = await runTolkProcess(["settings", "--port", port, "--config", other], {});
      assert.equal(result.code, 1);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /does not use the settings file/);
    } finally {
      await server.stop();
    }
  });
});

/** Loopback addresses besides 127.0.0.1 that `tolk serve --host` binds, as URLs write them. */
const OTHER_LOOPBACK = [["127.0.0.2", "127.0.0.2"], ["::1", "[::1]"]] as const;

for (const [host, inUrl] of OTHER_LOOPBACK) {
  Deno.test(`tolk settings --host ${host} links to the service bound there, and the link opens`, async () => {
    await withServeProcess(["--host", host], async (server, env) => {
      const port = new URL(server.url).port;
      const result = await runTolkProcess(["settings", "--host", host, "--port", port], env);
      assert.equal(result.code, 0, result.stderr);
      const link = result.stdout.trim();
      assert.ok(link.startsWith(`http://${inUrl}:${port}/settings?code=`), link);
      const opened = await fetch(link, { redirect: "manual" });
      await opened.body?.cancel();
      assert.equal(opened.status, 303);
    });
  });
}

const BAD_FLAGS = [
  { name: "a port that is no number", args: ["--port", "http"], flag: "--port" },
  { name: "a host off loopback", args: ["--host", "192.168.1.4"], flag: "--host" },
  { name: "a host name that is not localhost", args: ["--host", "example.com"], flag: "--host" },
] as const;

for (const { name, args, flag } of BAD_FLAGS) {
  Deno.test(`tolk settings refuses ${name} with one line naming ${flag}, exit code 2`, async () => {
    const result = await runTolkProcess(["settings", ...args]);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.ok(result.stderr.startsWith(`tolk settings: ${flag}: `), result.stderr);
  });
}

Deno.test("tolk settings prints no code but tolk's own: a squatter's terminal escapes stay off the screen", async () => {
  // Another program on the port (another user's, a stale dev server) answers the link request
  // with a "code" holding terminal control sequences (here: OSC 52, which sets the clipboard).
  const squatter = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      Response.json({
        code: "x\u001b]52;c;ZXZpbA==\u0007\r\u001b[2Kopen http://evil.example",
        expires_at: 1,
      }),
  );
  await withTempDir("tolk-settings-cli-test-", async (dir) => {
    const config = join(dir, "settings.json");
    Deno.writeTextFileSync(config, "{}");
    const port = String(squatter.addr.port);
    const result = await runTolkProcess(["settings", "--port", port], { TOLK_CONFIG: config });
    assert.equal(result.stdout, "");
    assert.equal(result.code, 1);
    assert.match(result.stderr, /is not a tolk service with a settings page/);
  }).finally(() => squatter.shutdown());
});

Deno.test("tolk settings --config outside the sandbox's grant says so in one line, exit code 2", async () => {
  // As under `deno task start`'s flags with a settings file elsewhere: the grant names one file,
  // --config another (an uncaught NotCapable from existsSync, with a stack trace, before).
  await withTempDir("tolk-settings-cli-test-", async (dir) => {
    const granted = join(dir, "granted", "settings.json");
    await withTempDir("tolk-settings-elsewhere-", async (elsewhere) => {
      const config = join(elsewhere, "settings.json");
      Deno.writeTextFileSync(config, "{}");
      const [program, ...args] = tolkArgv(["settings"], { TOLK_CONFIG: granted });
      const output = await new Deno.Command(program, {
        args: [...args, "--config", config],
        env: { NO_COLOR: "1" },
        stdin: "null",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 2, stderr);
      assert.equal(stderr.trim().split("\n").length, 1, stderr);
      assert.match(stderr, new RegExp(`^settings file ${config}: cannot be read \\(Requires read`));
      assert.match(stderr, /--config or TOLK_CONFIG/);
    });
  });
});
