/**
 * The README's `deno task tolk settings --host … --port …` (section "The settings page"), run as
 * written against `tolk serve` bound to that address, with only the port changed: the link it
 * prints names the service's own address and opens a session there.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { READER_SHELL_OPTIONS, shellCommandsUnder } from "../support/readme_commands.ts";
import { withServeProcess } from "../support/serve_process.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

Deno.test("the README's `deno task tolk settings --host` reaches a service on another loopback address", async () => {
  const commands = await shellCommandsUnder("## The settings page");
  const command = commands.find((line) => line.includes("--host"));
  assert.ok(command, "the README shows tolk settings with --host");
  const [, host, readmePort] = command.match(
    /^deno task tolk settings --host (\S+) --port (\d+) +# for `tolk serve --host \1 --port \2`$/,
  ) ?? [];
  assert.ok(host && readmePort, command);
  await withServeProcess(["--host", host], async (server, env) => {
    const port = new URL(server.url).port;
    const printed = await new Deno.Command("bash", {
      args: [
        ...READER_SHELL_OPTIONS,
        "-c",
        command.replace(`--port ${readmePort}`, `--port ${port}`),
      ],
      cwd: ROOT,
      env: {
        ...env,
        // `deno` as the README's reader has it: the one running this suite.
        PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`,
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(printed.stderr);
    assert.equal(printed.code, 0, stderr);
    const link = new TextDecoder().decode(printed.stdout).trim();
    assert.ok(link.startsWith(`${server.url}/settings?code=`), `${link} (${server.url})`);
    const opened = await fetch(link, { redirect: "manual" });
    await opened.body?.cancel();
    assert.equal(opened.status, 303, "the link opens a session");
  });
});
