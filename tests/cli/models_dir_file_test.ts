/**
 * A models folder flag that names a file (a model file given where its folder was meant): every
 * command that reads the folder says so, instead of "no models in FILE" and a pull hint into it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "../support/temp_dir.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

const COMMANDS = [
  { command: "models", args: ["models", "list"] },
  { command: "serve", args: ["serve", "--port", "0"] },
];

for (const { command, args } of COMMANDS) {
  Deno.test(`tolk ${args.join(" ")} with a file as --models-dir says so in one line, exit 2`, async () => {
    await withTempDir("tolk-models-dir-file-", async (dir) => {
      const file = join(dir, "model.onnx");
      await Deno.writeTextFile(file, "not a folder");
      const env = { TOLK_CONFIG: join(dir, "settings.json"), TOLK_DATA_DIR: dir };
      const result = await runTolkProcess([...args, "--models-dir", file], env);
      assert.equal(result.code, 2, result.stderr);
      const lines = result.stderr.trimEnd().split("\n");
      assert.equal(
        lines.at(-1),
        `tolk ${command}: cannot read the models directory ${file}: it is a file, not a ` +
          "directory; pick a readable one with --models-dir or TOLK_MODELS_DIR",
      );
      assert.ok(!result.stderr.includes("models pull"), result.stderr);
      assert.equal(result.stdout, "");
    });
  });
}

// `tolk models` may read only its models folder, so the file above it cannot be named.
Deno.test("tolk models list under a data folder that is a file says a folder on its path is a file, exit 2", async () => {
  await withTempDir("tolk-models-dir-file-", async (dir) => {
    const file = join(dir, "data");
    await Deno.writeTextFile(file, "not a folder");
    const env = { TOLK_CONFIG: join(dir, "settings.json"), TOLK_DATA_DIR: file };
    const result = await runTolkProcess(["models", "list"], env);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr.trimEnd().split("\n").at(-1),
      `tolk models: cannot read the models directory ${join(file, "models")}: a folder on its ` +
        "path is a file, not a directory; pick a readable one with --models-dir or TOLK_MODELS_DIR",
    );
  });
});
