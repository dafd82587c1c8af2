import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "../support/temp_dir.ts";
import { tolkArgv } from "../support/tolk_process.ts";
import { FIXTURE_MODELS_DIR } from "../support/translation_service.ts";

/**
 * Every command that prints to stdout, with stdout on a full disk (`> /dev/full`): each once
 * ended with Deno's "Uncaught (in promise) Error: No space left on device" and a stack trace.
 */
const PRINTING_COMMANDS = [
  { name: "version", args: ["version"] },
  { name: "", args: ["--help"] },
  { name: "serve", args: ["serve", "--help"] },
  { name: "api", args: ["api", "enable"] },
  { name: "token", args: ["token", "rotate"] },
  { name: "token", args: ["token", "show"] },
  { name: "models", args: ["models", "list", "--models-dir", FIXTURE_MODELS_DIR] },
  { name: "serve", args: ["serve", "--port", "0"] },
];

/** Runs `tolk <args>` with stdout on /dev/full; its exit code and stderr. */
async function runIntoFullDisk(args: string[], env: Record<string, string>) {
  const [program, ...argv] = tolkArgv(args, env);
  const output = await new Deno.Command("sh", {
    args: ["-c", 'exec "$@" > /dev/full', "sh", program, ...argv],
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

for (const { name, args } of PRINTING_COMMANDS) {
  Deno.test(`tolk ${args.join(" ")} to a full disk says so in one line and exits 1`, async () => {
    await withTempDir("tolk-stdout-full-", async (dir) => {
      const env = {
        TOLK_CONFIG: join(dir, "settings.json"),
        TOLK_DATA_DIR: join(dir, "data"),
        TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
      };
      // token show needs a token to print.
      await Deno.writeTextFile(
        env.TOLK_CONFIG,
        JSON.stringify({ api: { enabled: true, token: "t".repeat(43) } }),
        { mode: 0o600 },
      );
      const { code, stderr } = await runIntoFullDisk(args, env);
      assert.equal(code, 1, stderr);
      const last = stderr.trimEnd().split("\n").at(-1)!;
      assert.match(
        last,
        new RegExp(`^tolk${name && ` ${name}`}: cannot write to stdout: No space left on device`),
      );
      assert.doesNotMatch(stderr, /Uncaught|^\s+at /m, stderr);
    });
  });
}
