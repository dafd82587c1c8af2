/**
 * Start-up cost of the command line (BENCHMARKS.md, "Command line start-up"): `tolk token show`
 * from command to exit, started the three ways the README names, and `tolk serve` from command
 * to its `listening on` line, each under the permissions of cli/permissions.ts.
 *
 * Usage: deno task bench:cli [--runs N] [--no-npx]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { commandPermissions, permissionFlags } from "../cli/permissions.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const MAIN = join(ROOT, "main.ts");
const { values } = parseArgs({
  args: Deno.args,
  options: { runs: { type: "string", default: "15" }, "no-npx": { type: "boolean" } },
});
const runs = Number(values.runs);

const dir = await Deno.makeTempDir({ prefix: "tolk-cli-bench-" });
const paths = {
  config: join(dir, "settings.json"),
  dataDir: dir,
  modelsDir: join(ROOT, "tests/fixtures/models"),
};
const env = {
  TOLK_CONFIG: paths.config,
  TOLK_DATA_DIR: paths.dataDir,
  TOLK_MODELS_DIR: paths.modelsDir,
  DENO_NO_UPDATE_CHECK: "1",
  NO_COLOR: "1",
};
const deno = Deno.execPath();
const settingsFlags = permissionFlags(commandPermissions("settings", paths));
const empty = join(dir, "empty.ts");
await Deno.writeTextFile(empty, "");

/** Milliseconds from spawn to exit, after checking the command prints the token alone. */
async function timeToExit(command: string, args: string[], token: string): Promise<number> {
  const start = performance.now();
  const output = await new Deno.Command(command, {
    args,
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "null",
  }).output();
  const elapsed = performance.now() - start;
  const stdout = new TextDecoder().decode(output.stdout);
  if (token && stdout !== `${token}\n`) throw new Error(`${command} ${args.join(" ")}: ${stdout}`);
  return elapsed;
}

/** Milliseconds from spawn to the `listening on` line of `tolk serve`. */
async function timeToListening(): Promise<number> {
  const flags = permissionFlags(commandPermissions("serve", paths));
  const start = performance.now();
  const child = new Deno.Command(deno, {
    args: [
      "run",
      "--v8-flags=--max-semi-space-size=2,--no-memory-pool",
      ...flags,
      MAIN,
      "serve",
      "--port",
      "0",
    ],
    env,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("listening on")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("tolk serve exited before listening");
    seen += value;
  }
  const elapsed = performance.now() - start;
  child.kill("SIGTERM");
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  await child.status;
  return elapsed;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(name: string, once: () => Promise<number>) {
  await once(); // warm: module cache, npm resolution, page cache
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  const shown = samples.map((ms) => ms.toFixed(0)).join(", ");
  console.log(
    `| ${name} | ${median(samples).toFixed(0)} | ${Math.min(...samples).toFixed(0)} | ${shown} |`,
  );
}

try {
  const enabled = await new Deno.Command(deno, {
    args: ["run", ...settingsFlags, MAIN, "api", "enable"],
    env,
    stdout: "piped",
    stderr: "null",
  }).output();
  const token = new TextDecoder().decode(enabled.stdout).trim();
  console.log(`${runs} runs each after one warm-up; load average ${Deno.loadavg().join(" ")}`);
  console.log("| what | median ms | min ms | runs (ms) |");
  console.log("| --- | --- | --- | --- |");
  await measure(
    "`deno run` of an empty file (runtime floor)",
    () => timeToExit(deno, ["run", empty], ""),
  );
  await measure(
    "`deno run <settings flags> main.ts token show`",
    () => timeToExit(deno, ["run", ...settingsFlags, MAIN, "token", "show"], token),
  );
  await measure(
    "`deno task tolk token show`",
    () => timeToExit(deno, ["task", "tolk", "token", "show"], token),
  );
  if (!values["no-npx"]) {
    await measure(
      "`npx -y deno@2.9.6 task tolk token show`",
      () => timeToExit("npx", ["-y", "deno@2.9.6", "task", "tolk", "token", "show"], token),
    );
  }
  await measure("`tolk serve` to `listening on` (serve permissions)", timeToListening);
} finally {
  await Deno.remove(dir, { recursive: true });
}
