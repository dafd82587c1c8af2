import assert from "node:assert/strict";
import { join } from "node:path";
import { DetectResponseSchema, HealthResponseSchema } from "../../schemas/translation.ts";
import { expectBody, expectError, postJson } from "../support/http_assertions.ts";
import { withTempDir } from "../support/temp_dir.ts";
import {
  runTolkProcess,
  serveArgs,
  startTolkServer,
  waitForStderrLine,
} from "../support/tolk_process.ts";
import { FIXTURE_MODELS_DIR } from "../support/translation_service.ts";

Deno.test("tolk serve with no settings file creates one with the API off and says how to enable it", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const config = join(dir, "conf", "settings.json");
    const server = await startTolkServer(serveArgs({ config, dataDir: dir }));
    try {
      const settings = JSON.parse(await Deno.readTextFile(config));
      assert.equal(settings.api.enabled, false);
      assert.equal((await Deno.stat(config)).mode! & 0o777, 0o600);
      await waitForStderrLine(server, /tolk api enable/);
      await expectBody(await fetch(`${server.url}/v1/health`), 200, HealthResponseSchema);
      await expectError(
        await postJson(`${server.url}/v1/detect`, { texts: ["a"] }),
        401,
        "unauthorized",
      );
    } finally {
      assert.equal(await server.stop(), 0, "SIGTERM exits 0");
    }
  });
});

Deno.test("tolk api enable prints the token alone, and tolk token revoke takes effect without a restart", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const env = {
      TOLK_CONFIG: join(dir, "settings.json"),
      TOLK_DATA_DIR: dir,
      TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
    };
    const enabled = await runTolkProcess(["api", "enable"], env);
    assert.equal(enabled.code, 0, enabled.stderr);
    const token = enabled.stdout.trim();
    assert.match(enabled.stdout, /^[A-Za-z0-9_-]{43}\n$/);
    const server = await startTolkServer(["serve", "--port", "0"], env);
    try {
      const detect = () =>
        postJson(`${server.url}/v1/detect`, { texts: ["Hallo Welt"] }, { "x-svc-token": token });
      await expectBody(await detect(), 200, DetectResponseSchema);
      assert.equal((await runTolkProcess(["token", "show"], env)).stdout, `${token}\n`);
      assert.equal((await runTolkProcess(["token", "revoke"], env)).code, 0);
      await expectError(await detect(), 401, "unauthorized");
      const rotated = (await runTolkProcess(["token", "rotate"], env)).stdout.trim();
      assert.notEqual(rotated, token);
      await expectBody(
        await postJson(`${server.url}/v1/detect`, { texts: ["Hallo"] }, {
          authorization: `Bearer ${rotated}`,
        }),
        200,
        DetectResponseSchema,
      );
      assert.ok(!server.stderr.join("\n").includes(rotated), "no token in the logs");
    } finally {
      await server.stop();
    }
  });
});

Deno.test("tolk serve --host 127.0.0.2 answers requests whose Host names that address", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const env = {
      TOLK_CONFIG: join(dir, "settings.json"),
      TOLK_DATA_DIR: dir,
      TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
    };
    const token = (await runTolkProcess(["api", "enable"], env)).stdout.trim();
    const server = await startTolkServer(["serve", "--host", "127.0.0.2", "--port", "0"], env);
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.2:\d+$/);
      await expectBody(await fetch(`${server.url}/v1/health`), 200, HealthResponseSchema);
      await expectBody(
        await postJson(`${server.url}/v1/detect`, { texts: ["Hallo Welt"] }, {
          "x-svc-token": token,
        }),
        200,
        DetectResponseSchema,
      );
    } finally {
      await server.stop();
    }
  });
});

Deno.test("tolk serve with no model says in one line how to get one, and translate answers 503 with that hint", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const env = {
      TOLK_CONFIG: join(dir, "settings.json"),
      TOLK_DATA_DIR: dir,
      TOLK_MODELS_DIR: join(dir, "empty-models"),
    };
    const token = (await runTolkProcess(["api", "enable"], env)).stdout.trim();
    const server = await startTolkServer(["serve", "--port", "0"], env);
    try {
      await waitForStderrLine(server, /tolk models pull/);
      const hints = server.stderr.filter((line) => line.includes("tolk models pull"));
      assert.equal(hints.length, 1, server.stderr.join("\n"));
      // The command pulls where this service looks, the model its settings name.
      const pull = `deno task tolk models pull --config ${env.TOLK_CONFIG} ` +
        `--models-dir ${env.TOLK_MODELS_DIR}`;
      assert.match(hints[0], /Xenova\/nllb-200-distilled-600M is not installed/);
      assert.ok(hints[0].endsWith(`get it with \`${pull}\``), hints[0]);
      const response = await postJson(`${server.url}/v1/translate`, {
        target: "en",
        texts: ["Bonjour tout le monde"],
      }, { "x-svc-token": token });
      const body = await expectError(response, 503, "engine_unavailable");
      assert.ok(body.error.message.includes(`get it with \`${pull}\``), body.error.message);
    } finally {
      await server.stop();
    }
  });
});

const BAD_INVOCATIONS = [
  { args: ["serve", "--host", "0.0.0.0"], flag: "--host" },
  { args: ["serve", "--host", "192.168.1.4"], flag: "--host" },
  // Binds the Host check would refuse are refused before anything starts.
  { args: ["serve", "--host", "127.0.0.256"], flag: "--host" },
  { args: ["serve", "--host", "127.1"], flag: "--host" },
  { args: ["serve", "--host", "localhost.example"], flag: "--host" },
  { args: ["serve", "--port", "99999"], flag: "--port" },
  { args: ["serve", "--port", "abc"], flag: "--port" },
  { args: ["serve", "--port"], flag: "--port" },
  { args: ["serve", "--colour", "red"], flag: "--colour" },
  { args: ["api", "maybe"], flag: "api" },
  { args: ["token", "print"], flag: "token" },
];

Deno.test("tolk refuses bad flags with one stderr line naming the flag and exit code 2", async () => {
  for (const row of BAD_INVOCATIONS) {
    const result = await runTolkProcess(row.args, { TOLK_CONFIG: "/nonexistent/settings.json" });
    assert.equal(result.code, 2, row.args.join(" "));
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.ok(result.stderr.includes(row.flag), result.stderr);
  }
});

Deno.test("tolk serve reports a corrupt settings file with its path, exits 2 and leaves it alone", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const config = join(dir, "settings.json");
    await Deno.writeTextFile(config, "{ not json");
    const result = await runTolkProcess(["serve", "--port", "0", "--config", config]);
    assert.equal(result.code, 2);
    assert.ok(result.stderr.includes(config), result.stderr);
    assert.equal(await Deno.readTextFile(config), "{ not json");
  });
});

Deno.test("tolk serve refuses a settings file with a non-loopback engine address", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const config = join(dir, "settings.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({ engines: { "engine-one": { base_url: "http://10.0.0.5:11434" } } }),
    );
    const result = await runTolkProcess(["serve", "--port", "0", "--config", config]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /engines\.engine-one\.base_url.*loopback/);
  });
});

Deno.test("tolk serve refuses an empty engine model name in the settings file, saying to write null", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const config = join(dir, "settings.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({ engines: { "compatible-api": { model: " " } } }),
    );
    const result = await runTolkProcess(["serve", "--port", "0", "--config", config]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /engines\.compatible-api\.model.*write null/);
    assert.equal(result.stderr.trim().split("\n").length, 1);
  });
});

Deno.test("tolk serve on a port already in use exits 2 with only one stderr line naming it and the remedy, touching nothing", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const port = String((taken.addr as Deno.NetAddr).port);
      const config = join(dir, "conf", "settings.json");
      const result = await runTolkProcess(["serve", "--port", port], {
        TOLK_CONFIG: config,
        TOLK_DATA_DIR: join(dir, "data"),
      });
      assert.equal(result.code, 2);
      assert.equal(result.stdout, "");
      // Bound before the settings, the data or the models are looked at: no hint about them.
      assert.equal(
        result.stderr,
        `tolk serve: --port: 127.0.0.1:${port} is already in use; stop what listens there or pick another port with --port (0 picks a free one)\n`,
      );
      assert.deepEqual([...Deno.readDirSync(dir)], [], "no settings file or data folder made");
    } finally {
      taken.close();
    }
  });
});

Deno.test("tolk serve names settings keys it does not know (a typo is said, not silently ignored), at start and when the file changes", async () => {
  await withTempDir("tolk-cli-test-", async (dir) => {
    const config = join(dir, "settings.json");
    const token = "t".repeat(43);
    const settings = {
      api: { enabled: true, token, enabeld: true },
      engines: { "local-llm": { modle: "org/name" }, order: ["local-llm"] },
      future_section: { x: 1 },
    };
    await Deno.writeTextFile(config, JSON.stringify(settings));
    const server = await startTolkServer(serveArgs({ config, dataDir: dir }));
    try {
      const unknown = () => server.stderr.filter((line) => line.includes("unknown"));
      await waitForStderrLine(server, /unknown keys/);
      assert.deepEqual(unknown(), [
        `settings file ${config}: unknown keys, kept but not read: api.enabeld, ` +
        `engines.local-llm.modle, future_section`,
      ]);
      // A new version of the file is read at the next request, and said once.
      await Deno.writeTextFile(
        config,
        JSON.stringify({ ...settings, api: { enabled: true, token }, compat: { sensitve: true } }),
      );
      // The settings are read (and their keys said) before a request's access line is written:
      // once that line is in, so is anything said for the request.
      const detect = async (id: string) => {
        const response = await postJson(`${server.url}/v1/detect`, { texts: ["Hallo Welt"] }, {
          "x-svc-token": token,
          "x-request-id": id,
        });
        await expectBody(response, 200, DetectResponseSchema);
        await waitForStderrLine(server, new RegExp(`^${id} `));
      };
      await detect("changed-1");
      await detect("changed-2");
      assert.equal(unknown().length, 2, unknown().join("\n"));
      assert.match(unknown()[1], /: engines\.local-llm\.modle, future_section, compat\.sensitve$/);
      // Known keys only: nothing is said.
      await Deno.writeTextFile(config, JSON.stringify({ api: { enabled: true, token } }));
      await detect("known-only");
      assert.equal(unknown().length, 2, unknown().join("\n"));
    } finally {
      await server.stop();
    }
  });
});
