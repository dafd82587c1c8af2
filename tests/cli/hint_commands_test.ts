/**
 * The commands tolk tells the user to run (`enable it with …`, `get it with …`), copied as
 * printed into a fresh shell, act on the files of the command that printed them: a hint for a
 * service started with `--config` or `--data-dir` elsewhere once enabled the default settings
 * file and pulled into the default models folder, leaving the service as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeHub } from "../models/fake_hub.ts";
import { postJson } from "../support/http_assertions.ts";
import { readUntil, stopProcessTree } from "../support/process_tree.ts";
import { runAsReader } from "../support/readme_commands.ts";
import { runTolkProcess, serveArgs, startTolkServer } from "../support/tolk_process.ts";
import { closedPortUrl } from "../support/translation_service.ts";
import { shellWord } from "../../tolk_command.ts";

const MODEL = "tolk-test/tiny-nllb";

/** The command between backticks after `said` in `text`. */
function hinted(text: string, said: string): string {
  const match = text.match(new RegExp(`${said} \`([^\`]+)\``));
  assert.ok(match, `no "${said} \`…\`" in: ${text}`);
  return match[1];
}

async function waitForLines(lines: string[], count: number): Promise<string> {
  for (let i = 0; i < 100 && lines.length < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return lines.join("\n");
}

Deno.test("tolk serve's hints for --config and --data-dir elsewhere enable that file and pull into its models dir", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-hints-" });
  const home = await Deno.makeTempDir({ prefix: "tolk-hints-home-" });
  const hub = startFakeHub();
  const config = join(dir, "my settings", "settings.json");
  const dataDir = join(dir, "data");
  await Deno.mkdir(join(dir, "my settings"));
  await Deno.writeTextFile(config, JSON.stringify({ engines: { "local-llm": { model: MODEL } } }));
  const server = await startTolkServer(serveArgs({ config, dataDir }));
  try {
    const said = await waitForLines(server.stderr, 2);
    // The disabled API's 401 answers any program on this computer: it asks for the served file
    // as FILE, never by its path; a bare `api enable` there enabled the default file instead.
    const refusal = await postJson(`${server.url}/v1/translate`, { target: "en", texts: ["x"] });
    assert.equal(refusal.status, 401);
    const refused = (await refusal.json()).error.message;
    const served = shellWord(config);
    assert.equal(
      hinted(refused, "enable it with"),
      hinted(said, "enable it with").replace(served, "FILE"),
    );
    assert.match(refused, /FILE is the settings file this service was started with/);
    assert.ok(!refused.includes(dir), refused);
    const enable = await runAsReader(hinted(said, "enable it with"), home);
    assert.equal(enable.code, 0, enable.stderr);
    const token = enable.stdout.trim();
    assert.equal(JSON.parse(await Deno.readTextFile(config)).api.token, token, "the served file");

    const request = { target: "en", texts: ["Bonjour tout le monde"] };
    const auth = { "X-Svc-Token": token };
    const missing = await postJson(`${server.url}/v1/translate`, request, auth);
    assert.equal(missing.status, 503);
    const pull = hinted((await missing.json()).error.message, "get it with");
    assert.equal(pull, hinted(said, "get it with"), "the start line and the 503 say the same");
    const pulled = await runAsReader(pull, home, { HF_ENDPOINT: hub.endpoint });
    assert.equal(pulled.code, 0, pulled.stderr);
    // The service sees the new model once its list of installed models is read again (2 s).
    let translated = "";
    for (let i = 0; i < 40 && !translated.startsWith("200"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const response = await postJson(`${server.url}/v1/translate`, request, auth);
      translated = `${response.status} ${await response.text()}`;
    }
    assert.match(translated, /^200 /, "the service translates with the model the hint pulled");
  } finally {
    await server.stop();
    await hub.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("tolk token show's hint for a --config elsewhere enables that file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-hints-" });
  const home = await Deno.makeTempDir({ prefix: "tolk-hints-home-" });
  const config = join(dir, "settings.json");
  try {
    const shown = await runTolkProcess(["token", "show", "--config", config]);
    assert.equal(shown.code, 1);
    const enable = await runAsReader(hinted(shown.stderr, "run"), home);
    assert.equal(enable.code, 0, enable.stderr);
    const again = await runTolkProcess(["token", "show", "--config", config]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, enable.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("tolk settings' hints, with no service or no settings file, start the service it looks for", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-hints-" });
  const home = await Deno.makeTempDir({ prefix: "tolk-hints-home-" });
  const port = new URL(closedPortUrl()).port;
  const args = ["settings", "--host", "127.0.0.2", "--port", port];
  const config = join(dir, "settings.json");
  try {
    const noFile = await runTolkProcess([...args, "--config", config]);
    assert.equal(noFile.code, 1);
    await Deno.writeTextFile(config, "{}");
    const noService = await runTolkProcess([...args, "--config", config]);
    assert.equal(noService.code, 1);
    for (const said of [noFile.stderr, noService.stderr]) {
      await Deno.remove(config).catch(() => {});
      const serve = new Deno.Command("bash", {
        args: ["-c", `exec ${hinted(said, "start (?:it|the service) with")}`],
        env: { HOME: home, PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1" },
        clearEnv: true,
        cwd: new URL("../..", import.meta.url).pathname,
        stdin: "null",
        stdout: "piped",
        stderr: "null",
      }).spawn();
      const lines = serve.stdout.pipeThrough(new TextDecoderStream()).getReader();
      try {
        const seen = await readUntil(lines, (text) => text.includes("\n"));
        assert.equal(seen, `listening on http://127.0.0.2:${port}\n`, said);
        const link = await runTolkProcess([...args, "--config", config]);
        assert.equal(link.code, 0, `${said}\n${link.stderr}`);
        assert.match(link.stdout, new RegExp(`^http://127\\.0\\.0\\.2:${port}/settings\\?code=`));
      } finally {
        await lines.cancel().catch(() => {});
        await stopProcessTree(serve);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a hint printed by `deno task --config <checkout>/deno.json tolk …` in another folder runs in that folder", async () => {
  const home = await Deno.makeTempDir({ prefix: "tolk-hints-home-" });
  const folder = await Deno.makeTempDir({ prefix: "tolk-hints-cwd-" });
  const checkout = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
  const task = `deno task -q --config ${checkout}/deno.json tolk`;
  try {
    const shown = await runAsReader(`${task} token show`, home, {}, folder);
    assert.equal(shown.code, 1);
    const enable = await runAsReader(hinted(shown.stderr, "run"), home, {}, folder);
    assert.equal(enable.code, 0, enable.stderr);
    const again = await runAsReader(`${task} token show`, home, {}, folder);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, enable.stdout);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(folder, { recursive: true });
  }
});
