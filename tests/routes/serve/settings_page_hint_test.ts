/**
 * Without a session, the settings page (and its endpoints' 401) say which `tolk settings` to run
 * for this service: its address as the page was reached, and `--config FILE` when the service
 * reads a settings file other than the default — never that file's path, which would tell any
 * program on this computer the user's name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ErrorResponseSchema } from "../../../schemas/translation.ts";
import { rawGet } from "../../support/raw_http.ts";
import { openSession, WITH_LINK_KEY } from "../../support/settings_session.ts";
import { withTempDir } from "../../support/temp_dir.ts";
import { runTolkProcess, startTolkServer } from "../../support/tolk_process.ts";
import { FIXTURE_MODELS_DIR, withTranslationService } from "../../support/translation_service.ts";

/** The commands in the page's `<code>` elements. */
function codes(html: string): string[] {
  return [...html.matchAll(/<code>([^<]*)<\/code>/g)].map((match) => match[1]);
}

const CASES = [
  {
    name: "a settings file other than the default",
    customConfig: true,
    command: (port: string) => `deno task tolk settings --port ${port} --config FILE`,
  },
  {
    name: "the default settings file",
    customConfig: false,
    command: (port: string) => `deno task tolk settings --port ${port}`,
  },
];

for (const row of CASES) {
  Deno.test(`/settings without a session names this service's port, with ${row.name}`, async () => {
    await withTranslationService(async (service) => {
      const port = new URL(service.url).port;
      const response = await fetch(`${service.url}/settings`);
      assert.equal(response.status, 401);
      const html = await response.text();
      assert.ok(codes(html).includes(row.command(port)), codes(html).join("\n"));
      assert.equal(/FILE is the settings file/.test(html), row.customConfig, html);
      assert.ok(!html.includes(service.configPath), "the path stays off the page");
      assert.ok(!html.includes("9000"), "no made-up example port");

      const api = await fetch(`${service.url}/settings/api/state`);
      assert.equal(api.status, 401);
      const { error } = ErrorResponseSchema.parse(await api.json());
      assert.ok(error.message.includes(`\`${row.command(port)}\``), error.message);
      assert.ok(!error.message.includes(service.configPath), error.message);
    }, { settings: WITH_LINK_KEY, customConfig: row.customConfig });
  });
}

Deno.test("the session's page names this service's port, settings file and models folder in its commands", async () => {
  await withTranslationService(async (service) => {
    const port = new URL(service.url).port;
    const cookie = await openSession(service);
    const response = await fetch(`${service.url}/settings`, { headers: { cookie } });
    assert.equal(response.status, 200);
    const html = await response.text();
    // Served to the session's holder only, who sees the token and the models folder: the path
    // makes the command runnable as shown when the session ends (a restart of the service).
    const command = `deno task tolk settings --port ${port} --config ${service.configPath}`;
    assert.ok(codes(html).includes(command), codes(html).join("\n"));
    // Its models hint pulls where this service looks, the model its settings name.
    const pull = `deno task tolk models pull ORG/NAME --config ${service.configPath} ` +
      `--models-dir ${FIXTURE_MODELS_DIR}`;
    assert.ok(codes(html).includes(pull), codes(html).join("\n"));
  }, { settings: WITH_LINK_KEY });
});

const HOSTS = [
  {
    host: (port: string) => `localhost:${port}`,
    flags: (port: string) => `--host localhost --port ${port}`,
  },
  { host: () => "127.0.0.1:8765", flags: () => "" },
  {
    host: (port: string) => `127.0.0.2:${port}`,
    flags: (port: string) => `--host 127.0.0.2 --port ${port}`,
  },
  { host: (port: string) => `[::1]:${port}`, flags: (port: string) => `--host ::1 --port ${port}` },
  { host: () => "LocalHost", flags: () => "--host localhost --port 80" },
];

Deno.test("/settings without a session names the address the page was reached at", async () => {
  await withTranslationService(async (service) => {
    const port = new URL(service.url).port;
    for (const row of HOSTS) {
      const response = await rawGet(service.url, "/settings", { Host: row.host(port) });
      assert.equal(response.status, 401);
      const expected = `deno task tolk settings ${row.flags(port)}`.trimEnd();
      assert.ok(codes(response.body).includes(expected), codes(response.body).join("\n"));
    }
  }, { settings: WITH_LINK_KEY, customConfig: false });
});

Deno.test("tolk serve --config elsewhere: the page's command, with FILE filled in, prints a link to it", async () => {
  await withTempDir("tolk-settings-hint-test-", async (dir) => {
    const config = join(dir, "my settings.json");
    const env = { TOLK_DATA_DIR: dir, TOLK_MODELS_DIR: FIXTURE_MODELS_DIR };
    const server = await startTolkServer(["serve", "--port", "0", "--config", config], env);
    try {
      const html = await (await fetch(`${server.url}/settings`)).text();
      const command = codes(html).find((code) => code.includes(" settings "));
      const port = new URL(server.url).port;
      assert.equal(command, `deno task tolk settings --port ${port} --config FILE`, html);
      assert.ok(!html.includes(dir), "the path stays off the page");
      const args = command.replace(/^deno task tolk /, "").split(" ")
        .map((word) => word === "FILE" ? config : word);
      const result = await runTolkProcess(args, env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`^${server.url}/settings\\?code=`));
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
