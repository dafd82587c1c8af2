import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

/** Command lines every command refuses by the one rule of parseCommand: one line, exit 2. */
const REFUSED_COMMAND_LINES = [
  { args: ["api"], line: "tolk api: expected enable or disable" },
  { args: ["api", "on"], line: "tolk api: expected enable or disable" },
  { args: ["api", "enable", "now"], line: 'tolk api: unexpected argument "now"' },
  { args: ["token", "print"], line: "tolk token: expected show, rotate or revoke" },
  // An action slipped like a flag is answered like one.
  { args: ["api", "enabel"], line: "tolk api: expected enable or disable (did you mean enable?)" },
  {
    args: ["history", "lsit"],
    line: "tolk history: expected list, clear or export (did you mean list?)",
  },
  { args: ["models", "pul"], line: "tolk models: expected list or pull ID (did you mean pull?)" },
  { args: ["history", "list", "all"], line: 'tolk history: unexpected argument "all"' },
  {
    args: ["history", "list", "--limit", "abc"],
    line: "tolk history: --limit: expected a whole number from 1 to 10000",
  },
  {
    args: ["models", "pull", "foo"],
    line: 'tolk models: "foo" is not a model id (org/name)',
  },
  // An unset variable in `--config "$FILE"`: it once read "Too small: expected string to have
  // >=1 characters", zod's words.
  { args: ["token", "show", "--config", ""], line: "tolk token: --config: must not be empty" },
  { args: ["history", "list", "--q", ""], line: "tolk history: --q: must not be empty" },
  // It once read "Invalid option: expected one of \"fp32\"|\"fp16\"|…", zod's words.
  {
    args: ["models", "pull", "--dtype", "fp8"],
    line: "tolk models: --dtype: must be one of fp32, fp16, q8, int8, uint8, q4, q4f16, bnb4",
  },
  { args: ["serve", "now"], line: 'tolk serve: unexpected argument "now"' },
  // A short flag from habit (`-p` of other servers) is a flag tolk lacks, not an argument.
  { args: ["serve", "-p", "9000"], line: "tolk serve: -p: unknown flag" },
  { args: ["history", "list", "-n", "5"], line: "tolk history: -n: unknown flag" },
  // A slip of the keyboard is answered with the flag meant; a flag of another command is not.
  {
    args: ["serve", "--prot", "9000"],
    line: "tolk serve: --prot: unknown flag (did you mean --port?)",
  },
  {
    args: ["infer", "--modle", "m.gguf"],
    line: "tolk infer: --modle: unknown flag (did you mean --model?)",
  },
  {
    args: ["history", "list", "--data_dir", "x"],
    line: "tolk history: --data_dir: unknown flag (did you mean --data-dir?)",
  },
  {
    args: ["token", "show", "--Config", "x"],
    line: "tolk token: --Config: unknown flag (did you mean --config?)",
  },
  { args: ["history", "list", "--port", "1"], line: "tolk history: --port: unknown flag" },
  { args: ["history", "list", "--n", "5"], line: "tolk history: --n: unknown flag" },
  // Off loopback: what is refused, and what to run instead.
  {
    args: ["serve", "--host", "0.0.0.0"],
    line: "tolk serve: --host: binds to loopback only (127.0.0.0/8, ::1 or localhost), so no " +
      "request is served to other machines; use one of those, e.g. the default 127.0.0.1",
  },
  {
    args: ["infer", "--model", "m.gguf", "--host", "0.0.0.0"],
    line: "tolk infer: refusing to listen on non-loopback host 0.0.0.0 without SVC_API_KEY set; " +
      'set it to a long random key (README, "Serving another address") or use a loopback --host',
  },
  { args: ["settings", "open"], line: 'tolk settings: unexpected argument "open"' },
  // An address written with its port, or as the URL the service printed: loopback all the same,
  // so "binds to loopback only" (or infer's "non-loopback host") was the wrong reason.
  {
    args: ["serve", "--host", "127.0.0.1:9000"],
    line:
      'tolk serve: --host: "127.0.0.1:9000" holds a port; give it apart: --host 127.0.0.1 --port 9000',
  },
  {
    args: ["settings", "--host", "http://[::1]:8766/"],
    line:
      'tolk settings: --host: "http://[::1]:8766/" is a URL; give its parts: --host ::1 --port 8766',
  },
  {
    args: ["infer", "--model", "m.gguf", "--host", "localhost:8080"],
    line:
      'tolk infer: --host: "localhost:8080" holds a port; give it apart: --host localhost --port 8080',
  },
  // Port 0 is serve's "pick a free one": no service is found there, and its hint said to start
  // one with `serve --port 0`, which listens anywhere but there.
  {
    args: ["settings", "--port", "0"],
    line: "tolk settings: --port: must be at least 1 (the port `tolk serve` printed it listens on)",
  },
  {
    args: ["infer", "--model", "m.gguf", "now"],
    line: 'tolk infer: unexpected argument "now"',
  },
];

for (const { args, line } of REFUSED_COMMAND_LINES) {
  Deno.test(`tolk ${args.join(" ")} is refused with one line naming the command, exit 2`, async () => {
    await withTempDir("tolk-flags-test-", async (dir) => {
      const env = { TOLK_CONFIG: join(dir, "settings.json"), TOLK_DATA_DIR: dir };
      const result = await runTolkProcess(args, env);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr, `${line}\n`);
      assert.equal(result.stdout, "");
    });
  });
}

Deno.test("--config wins over TOLK_CONFIG, which names the settings file without the flag", async () => {
  await withTempDir("tolk-flags-test-", async (dir) => {
    const byFlag = join(dir, "flag.json");
    const byEnv = join(dir, "env.json");
    const env = { TOLK_CONFIG: byEnv };
    const enabled = await runTolkProcess(["api", "enable", "--config", byFlag], env);
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.equal(JSON.parse(await Deno.readTextFile(byFlag)).api.token, enabled.stdout.trim());
    await assert.rejects(Deno.stat(byEnv), Deno.errors.NotFound);

    const shown = await runTolkProcess(["token", "show"], env);
    assert.equal(shown.code, 1, "no token in the TOLK_CONFIG file yet");
    // Named, so a mistyped --config or TOLK_CONFIG shows (it once said only "no token: …"), and
    // the commands name it too: pasted where TOLK_CONFIG is unset they act on the same file.
    assert.equal(
      shown.stderr.trim(),
      `no token in ${byEnv}: run \`deno task tolk api enable --config ${byEnv}\` or ` +
        `\`deno task tolk token rotate --config ${byEnv}\``,
    );
    assert.equal((await runTolkProcess(["token", "rotate"], env)).code, 0);
    assert.ok(JSON.parse(await Deno.readTextFile(byEnv)).api.token);
  });
});
