/**
 * A data folder flag that names a file: every command that opens the data says so in one line
 * with the remedy, instead of SQLite's or mkdir's words about the database file inside it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

const COMMANDS = [
  { command: "serve", args: ["serve", "--port", "0"] },
  { command: "history", args: ["history", "list"] },
  { command: "history", args: ["history", "clear"] },
];

for (const { command, args } of COMMANDS) {
  for (const where of ["--data-dir", "TOLK_DATA_DIR"]) {
    Deno.test(`tolk ${args.join(" ")} with a file as ${where} says so in one line, exit 2`, async () => {
      await withTempDir("tolk-data-dir-file-", async (dir) => {
        const file = join(dir, "notes.txt");
        await Deno.writeTextFile(file, "not a folder");
        const models = join(dir, "models");
        const env: Record<string, string> = { TOLK_CONFIG: join(dir, "settings.json") };
        const flags = where === "--data-dir" ? ["--data-dir", file] : [];
        if (where === "TOLK_DATA_DIR") env.TOLK_DATA_DIR = file;
        const modelsFlag = command === "serve" ? ["--models-dir", models] : [];
        const result = await runTolkProcess([...args, ...flags, ...modelsFlag], env);
        assert.equal(result.code, 2, result.stderr);
        assert.equal(
          result.stderr.trimEnd().split("\n").at(-1),
          `tolk ${command}: cannot use the data directory ${file}: it is a file, not a ` +
            "directory; pick a directory with --data-dir or TOLK_DATA_DIR",
        );
        assert.equal(result.stdout, "");
      });
    });
  }
}

Deno.test("tolk serve with a file as --data-dir and the models folder inside it names the data folder", async () => {
  await withTempDir("tolk-data-dir-file-", async (dir) => {
    const file = join(dir, "notes.txt");
    await Deno.writeTextFile(file, "not a folder");
    const env = { TOLK_CONFIG: join(dir, "settings.json") };
    const result = await runTolkProcess(["serve", "--port", "0", "--data-dir", file], env);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr.trimEnd().split("\n").at(-1),
      `tolk serve: cannot use the data directory ${file}: it is a file, not a directory; ` +
        "pick a directory with --data-dir or TOLK_DATA_DIR",
    );
  });
});

Deno.test("tolk serve with a --data-dir under a file names that file", async () => {
  await withTempDir("tolk-data-dir-file-", async (dir) => {
    const file = join(dir, "notes.txt");
    await Deno.writeTextFile(file, "not a folder");
    const env = { TOLK_CONFIG: join(dir, "settings.json") };
    const dataDir = join(file, "tolk");
    const args = ["serve", "--port", "0", "--data-dir", dataDir, "--models-dir", dir];
    const result = await runTolkProcess(args, env);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr.trimEnd().split("\n").at(-1),
      `tolk serve: cannot use the data directory ${dataDir}: ${file} is a file, not a ` +
        "directory; pick a directory with --data-dir or TOLK_DATA_DIR",
    );
  });
});
