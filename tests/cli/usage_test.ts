import assert from "node:assert/strict";
import { FlagError, parseFlags } from "../../cli/flags.ts";
import { runTolkProcess } from "../support/tolk_process.ts";
import { runAsReader, shellCommandsUnder } from "../support/readme_commands.ts";
import { APP_VERSION } from "../../version.ts";
import { tolkCommand } from "../../tolk_command.ts";

const COMMANDS = ["serve", "api", "token", "infer", "models", "history", "settings", "version"];

Deno.test("tolk --help lists every flag each command's parser accepts, models --dtype included", async () => {
  const help = await runTolkProcess(["--help"]);
  assert.equal(help.code, 0, help.stderr);
  const sections = help.stdout.split("\n\n");
  for (const name of COMMANDS) {
    const { usage } = await import(`../../cli/${name}_command.ts`);
    const section = sections.find((text) => text.startsWith(`tolk ${name}`));
    assert.ok(section, `no section for ${name}`);
    for (const flag of Object.keys(usage.flags.shape)) {
      assert.match(section, new RegExp(`^  --${flag}( |$)`, "m"), `${name} --${flag}`);
    }
  }
  assert.match(help.stdout, /^ {2}--dtype DTYPE .*fp32/m);
});

Deno.test("a flag the help shows with N takes a number: a word after it is refused", async () => {
  const help = (await runTolkProcess(["--help"])).stdout;
  for (const name of COMMANDS) {
    const { usage } = await import(`../../cli/${name}_command.ts`);
    const section = help.split("\n\n").find((text) => text.startsWith(`tolk ${name}`))!;
    for (const [, flag] of section.matchAll(/^ {2}--(\S+) N /gm)) {
      assert.throws(
        () => parseFlags([`--${flag}`, "word"], usage.flags),
        FlagError,
        `tolk ${name} --${flag} N takes a word`,
      );
    }
  }
});

Deno.test("tolk <command> --help (or -h, anywhere) prints that command's part of tolk --help, exit 0", async () => {
  const sections = (await runTolkProcess(["--help"])).stdout.split("\n\n");
  for (const args of [["infer", "--help"], ["token", "show", "-h"], ["models", "pull", "--help"]]) {
    const run = await runTolkProcess(args);
    assert.equal(run.code, 0, run.stderr);
    const own = sections.find((text) => text.startsWith(`tolk ${args[0]}`))!;
    assert.equal(run.stdout.trim(), own.trim(), args.join(" "));
  }
});

Deno.test("tolk help <command> prints that command's part too; help with an unknown one is refused", async () => {
  const sections = (await runTolkProcess(["--help"])).stdout.split("\n\n");
  const run = await runTolkProcess(["help", "serve"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), sections.find((text) => text.startsWith("tolk serve"))!.trim());
  const unknown = await runTolkProcess(["help", "serv"]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, "");
  assert.match(unknown.stderr, /^tolk: unknown command "serv"/);
});

Deno.test("tolk with no command prints the help on stderr and exits 2", async () => {
  const run = await runTolkProcess([]);
  assert.equal(run.code, 2);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^usage: tolk <command>/);
});

Deno.test("an unusable environment variable is one line naming it, exit 2", async () => {
  const run = await runTolkProcess(["models", "list"], { HF_ENDPOINT: "not a url" });
  assert.equal(run.code, 2);
  assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
  assert.match(run.stderr, /HF_ENDPOINT: must be an http\(s\) URL/);
});

Deno.test("the README's Commands block is exactly tolk --help", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("\n## Commands\n"));
  const start = section.indexOf("```\n") + 4;
  const block = section.slice(start, section.indexOf("```\n", start));
  assert.equal(block, (await runTolkProcess(["--help"])).stdout);
});

Deno.test("tolk --version and tolk version print `tolk <version>` alone on stdout, exit 0", async () => {
  for (const args of [["--version"], ["version"]]) {
    const run = await runTolkProcess(args);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `tolk ${APP_VERSION}\n`, args.join(" "));
    assert.equal(run.stderr, "", args.join(" "));
  }
  const extra = await runTolkProcess(["version", "--short"]);
  assert.equal(extra.code, 2);
  assert.equal(extra.stderr, "tolk version: --short: unknown flag\n");
});

Deno.test("the README's version command runs as written", async () => {
  const [command] = await shellCommandsUnder("## Commands");
  assert.match(command, /^deno task tolk --version\b/);
  const home = await Deno.makeTempDir({ prefix: "tolk-readme-version-" });
  try {
    const run = await runAsReader(command, home);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `tolk ${APP_VERSION}\n`);
    // The comment shows what it prints.
    assert.ok(command.includes(`# ${run.stdout.trim()};`), command);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

const UNKNOWN_WORDS = [
  { args: ["--verbose"], line: `tolk: unknown flag "--verbose" (try: ${tolkCommand("--help")})` },
  { args: ["-v", "serve"], line: `tolk: unknown flag "-v" (try: ${tolkCommand("--help")})` },
  // `deno task start` is a task, not a command: no command is close, so all are listed.
  { args: ["start"], line: /^tolk: unknown command "start" \(try: serve, .*, version\)$/ },
  // A slip of the keyboard is answered with the command meant, as a flag's is.
  { args: ["serv"], line: 'tolk: unknown command "serv" (did you mean serve?)' },
  { args: ["hsitory", "list"], line: 'tolk: unknown command "hsitory" (did you mean history?)' },
];

Deno.test("tolk with an unknown flag or command before any command is one line, exit 2", async () => {
  for (const { args, line } of UNKNOWN_WORDS) {
    const run = await runTolkProcess(args);
    assert.equal(run.code, 2, args.join(" "));
    assert.equal(run.stdout, "");
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, run.stderr);
    if (typeof line === "string") assert.equal(lines[0], line);
    else assert.match(lines[0], line);
  }
});

Deno.test("the README's `tolk infer` flag table names every flag of tolk infer --help with its default", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const table = readme.slice(
    readme.indexOf("\n| flag "),
    readme.indexOf("\n\n", readme.indexOf("\n| flag ")),
  );
  const rows = [...table.matchAll(/^\| `--([a-z-]+)[^`]*` +\| (.*?) +\|/gm)];
  const help = (await runTolkProcess(["infer", "--help"])).stdout;
  const helpFlags = [...help.matchAll(/^ {2}--([a-z-]+)/gm)].map(([, flag]) => flag);
  assert.deepEqual(rows.map(([, flag]) => flag), helpFlags);
  for (const [, flag, readmeDefault] of rows) {
    const line = help.split("\n").find((text) => text.startsWith(`  --${flag} `))!;
    // A value in backticks is what the help prints; words ("physical cores", "off") are prose.
    const value = readmeDefault.match(/^`([^`]+)`/)?.[1];
    if (value !== undefined) assert.ok(line.endsWith(`(default ${value})`), `${flag}: ${line}`);
  }
});

Deno.test("`--` ends the flags: `deno task tolk -- --version` (npm's habit) runs, a word after it is an argument", async () => {
  const home = await Deno.makeTempDir({ prefix: "tolk-double-dash-" });
  try {
    const run = await runAsReader("deno task -q tolk -- --version", home);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `tolk ${APP_VERSION}\n`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
  const trailing = await runTolkProcess(["version", "--"]);
  assert.equal(trailing.code, 0, trailing.stderr);
  assert.equal(trailing.stdout, `tolk ${APP_VERSION}\n`);
  const help = await runTolkProcess(["history", "list", "--", "--help"]);
  assert.equal(help.code, 2);
  assert.equal(help.stdout, "");
  assert.equal(help.stderr, 'tolk history: unexpected argument "--help"\n');
});
