/**
 * The README's `tolk infer` command, run as written (`deno task tolk infer --model …`, the task's
 * own permission flags), with only the model path changed to the tiny fixture: it must listen on
 * the address the README shows, load the model and answer the README's curl. The suite's other
 * daemon tests start `main.ts` with the narrow flags of cli/permissions.ts, so they could not see
 * that the task's grant was too narrow for the model to load (it once was: FFI scoped to
 * node_modules).
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { TINY_GGUF } from "../support/infer_daemon.ts";
import { readUntil, stopProcessTree } from "../support/process_tree.ts";
import { READER_SHELL_OPTIONS, shellCommandsUnder } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const HEADING = "## Using `tolk infer` — a local chat-completions daemon";
const README_MODEL = "~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf";

/** The environment a README command runs in: `deno` as its reader has it (this suite's). */
const SHELL_ENV = {
  PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`,
  DENO_NO_UPDATE_CHECK: "1",
  NO_COLOR: "1",
};

/** Runs a shell line from the repository, its stdout read line by line. */
function spawnShell(line: string) {
  const process = new Deno.Command("bash", {
    args: [...READER_SHELL_OPTIONS, "-c", line],
    cwd: ROOT,
    env: SHELL_ENV,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(process.stderr).text();
  const lines = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  return { process, stderr, lines };
}

Deno.test("the README's `deno task tolk infer --model …` loads the model and answers", async () => {
  const [command, listening] = await shellCommandsUnder(HEADING);
  assert.ok(command.startsWith("deno task tolk infer --model "), command);
  assert.ok(command.includes(README_MODEL), command);
  const address = listening.match(/^# listening on (http:\/\/\S+)$/)?.[1];
  assert.ok(address, listening);

  const { process, stderr, lines } = spawnShell(`exec ${command.replace(README_MODEL, TINY_GGUF)}`);
  try {
    const seen = await readUntil(lines, (text) => text.includes("\n"));
    assert.equal(seen.split("\n")[0], `listening on ${address}`);

    let health: { status?: string } = {};
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const response = await fetch(`${address}/health`);
      health = await response.json();
      if (response.status === 200 || health.status === "error") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(health.status, "ok", `the model did not load: ${JSON.stringify(health)}`);

    // The README's request, as written.
    const [curl] = await shellCommandsUnder(HEADING, 1);
    assert.ok(curl.startsWith(`curl -s ${address}/v1/chat/completions `), curl);
    const answer = await new Deno.Command("bash", {
      args: [...READER_SHELL_OPTIONS, "-c", curl],
      stdout: "piped",
    }).output();
    assert.equal(answer.code, 0);
    const body = JSON.parse(new TextDecoder().decode(answer.stdout));
    assert.equal(typeof body.choices[0].message.content, "string", JSON.stringify(body));
    assert.ok(body.usage.completion_tokens >= 1 && body.usage.completion_tokens <= 32);
  } finally {
    // `deno task` runs the daemon as its child: signal the whole tree.
    await lines.cancel().catch(() => {});
    await stopProcessTree(process);
    const log = await stderr;
    assert.ok(!/Requires ffi access|PermissionDenied|NotCapable/.test(log), log);
  }
});

Deno.test("the README's command for another address serves it with the key; the task refuses it in one line", async () => {
  const [command] = await shellCommandsUnder("### Serving another address");
  assert.ok(command.includes(README_MODEL) && command.includes("0.0.0.0:8080"), command);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const run = command.replace(README_MODEL, TINY_GGUF).replaceAll("8080", String(port));
  const { process, stderr, lines } = spawnShell(`exec env ${run}`);
  try {
    const seen = await readUntil(lines, (text) => text.includes("\n"));
    assert.equal(seen.split("\n")[0], `listening on http://0.0.0.0:${port}`);
    const models = `http://127.0.0.1:${port}/v1/models`;
    const refused = await fetch(models);
    await refused.body?.cancel();
    assert.equal(refused.status, 401, "a key is needed");
    const key = /SVC_API_KEY=(\S+)/.exec(command)![1];
    const allowed = await fetch(models, { headers: { authorization: `Bearer ${key}` } });
    await allowed.body?.cancel();
    assert.equal(allowed.status, 200);
  } finally {
    await lines.cancel().catch(() => {});
    await stopProcessTree(process);
    const log = await stderr;
    assert.ok(!/NotCapable|PermissionDenied/.test(log), log);
  }
  // Through the task, the same address is one line and exit code 2, not a stack trace.
  const task = await new Deno.Command("bash", {
    args: ["-c", `deno task tolk infer --model ${TINY_GGUF} --host 0.0.0.0 --port ${port}`],
    cwd: ROOT,
    env: { ...SHELL_ENV, SVC_API_KEY: "a-key-for-the-test" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(task.code, 2);
  const said = new TextDecoder().decode(task.stderr).trim().split("\n").at(-1)!;
  assert.match(said, /^tolk infer: --host: listening on 0\.0\.0\.0:\d+ needs network permission/);
});
