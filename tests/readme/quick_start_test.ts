/**
 * The README's first command, run as written on a fresh home folder: `npx -y deno@2.9.6 task
 * start` prints the API token on its first line, then serves on 127.0.0.1:8765, where that token
 * is accepted; the settings page's `npx -y deno@2.9.6 task tolk settings` then prints a link to
 * it that opens a session. (The suite's other services start `main.ts` with the same flags, checked equal in
 * tests/cli/permissions_test.ts; this runs the task itself.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HealthResponseSchema } from "../../schemas/translation.ts";
import { readUntil, stopProcessTree } from "../support/process_tree.ts";
import { READER_SHELL_OPTIONS, shellCommandsUnder } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

Deno.test("the README's `npx -y deno@2.9.6 task start` prints a token and serves with it; its settings link opens", async () => {
  const [start] = await shellCommandsUnder("## Two commands");
  assert.match(start, /^npx -y deno@2\.9\.6 task start +# .*serve on (127\.0\.0\.1:8765)$/);
  const address = `http://${start.match(/serve on (\S+)$/)![1]}`;
  const home = await Deno.makeTempDir({ prefix: "tolk-quick-start-" });
  const env = {
    HOME: home,
    PATH: Deno.env.get("PATH") ?? "",
    // npx's cache stays where it is (no download of deno again for a new home).
    npm_config_cache: Deno.env.get("npm_config_cache") ??
      join(Deno.env.get("HOME") ?? "/root", ".npm"),
    DENO_NO_UPDATE_CHECK: "1",
    NO_COLOR: "1",
  };
  const process = new Deno.Command("bash", {
    args: [...READER_SHELL_OPTIONS, "-c", start],
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
  }).spawn();
  const stderr = new Response(process.stderr).text();
  const lines = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const seen = await readUntil(lines, (text) => text.includes("listening on"));
    const [token, listening] = seen.split("\n");
    assert.match(token, /^\S{20,}$/, seen);
    assert.match(listening, new RegExp(`^listening on ${address}`), seen);

    const health = await fetch(`${address}/v1/health`);
    assert.equal(health.status, 200);
    assert.ok(HealthResponseSchema.safeParse(await health.json()).success);
    const detect = await fetch(`${address}/v1/detect`, {
      method: "POST",
      headers: { "X-Svc-Token": token, "content-type": "application/json" },
      body: JSON.stringify({ texts: ["Guten Morgen"] }),
    });
    assert.equal(detect.status, 200, await detect.clone().text());
    assert.equal((await detect.json()).results[0].language, "de");

    // "The settings page": the link the README's command prints opens a session.
    const [settings] = await shellCommandsUnder("## The settings page");
    assert.match(settings, /^npx -y deno@2\.9\.6 task tolk settings +# prints /);
    const printed = await new Deno.Command("bash", {
      args: [...READER_SHELL_OPTIONS, "-c", settings],
      cwd: ROOT,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const link = new TextDecoder().decode(printed.stdout).trim();
    assert.match(link, new RegExp(`^${address}/settings\\?code=\\S+$`), link);
    const page = await fetch(link, { redirect: "manual" });
    await page.body?.cancel();
    assert.equal(page.status, 303);
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0];
    assert.ok(cookie.includes("="), "the link opens a session");
    const opened = await fetch(`${address}/settings`, { headers: { cookie } });
    assert.equal(opened.status, 200, "the session's page");
    await opened.body?.cancel();
  } finally {
    await lines.cancel().catch(() => {});
    await stopProcessTree(process);
    const log = await stderr;
    assert.ok(!/PermissionDenied|NotCapable|Requires .* access/.test(log), log);
    await Deno.remove(home, { recursive: true });
  }
});
