/**
 * The README's "Models" commands, run as written on a fresh home folder (`deno task tolk models
 * pull`, `… pull Xenova/nllb-200-distilled-600M`, `… models list`), against the hub stand-in of
 * tests/models/fake_hub.ts that publishes the tiny NLLB fixture under the README's model id: the
 * task's own permission flags must let `pull` reach the hub (`HF_ENDPOINT`) and write the default
 * models folder, and `list` must show what was pulled. tests/cli/models_command_test.ts covers
 * the command's behaviour through `main.ts` with the narrow flags; this runs the task.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeHub } from "../models/fake_hub.ts";
import { runAsReader, shellCommandsUnder } from "../support/readme_commands.ts";

const README_MODEL = "Xenova/nllb-200-distilled-600M";

Deno.test("the README's `deno task tolk models pull|list` commands run as written", async () => {
  const [pullDefault, pullNamed, list] = await shellCommandsUnder("## Models");
  assert.match(pullDefault, /^deno task tolk models pull +#/);
  assert.match(pullNamed, new RegExp(`^deno task tolk models pull ${README_MODEL} +#`));
  assert.match(list, /^deno task tolk models list$/);

  const hub = startFakeHub({ [README_MODEL]: "tolk-test/tiny-nllb" });
  const home = await Deno.makeTempDir({ prefix: "tolk-readme-models-" });
  const run = (command: string) => runInHome(command, home, hub.endpoint);
  try {
    // Without an id: the settings' default model, which a fresh home's settings name.
    const pulled = await run(pullDefault);
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stdout, new RegExp(`^installed ${README_MODEL} \\(fp32, 7 files\\)`));
    const installed = join(home, ".local/share/tolk/models", README_MODEL, "config.json");
    assert.ok((await Deno.stat(installed)).isFile, installed);

    const named = await run(pullNamed);
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stdout, new RegExp(`^installed ${README_MODEL} \\(fp32, 7 files\\)`));

    const listed = await run(list);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${README_MODEL}\\s+fp32\\s+[\\d.]+ MB\\s+ready\\n$`));
    assert.ok(hub.controls.log.some((line) => line.startsWith(`GET /${README_MODEL}/resolve/`)));
  } finally {
    await hub.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the README's mirror: `deno task tolk models pull` names HF_ENDPOINT and the flag; `main.ts` with its host pulls", async () => {
  const [mirrored] = await shellCommandsUnder("## Models", 1);
  const [, mirror] =
    mirrored.match(/^HF_ENDPOINT=(\S+) deno run .*--allow-net=(\S+) .* main\.ts models pull$/) ??
      [];
  assert.equal(mirror, "https://hf-mirror.com", mirrored);
  const hub = startFakeHub({ [README_MODEL]: "tolk-test/tiny-nllb" });
  const home = await Deno.makeTempDir({ prefix: "tolk-readme-mirror-" });
  try {
    // The task grants the hub's own hosts only: a mirror elsewhere is refused before any DNS.
    const refused = await runInHome("deno task tolk models pull", home, mirror, {
      permissionErrors: true,
    });
    assert.equal(refused.code, 2, refused.stderr);
    const lines = refused.stderr.split("\n").filter((line) => line && !line.startsWith("Task "));
    assert.equal(lines.length, 1, refused.stderr);
    assert.match(
      lines[0],
      /^tolk models: HF_ENDPOINT https:\/\/hf-mirror\.com .*--allow-net=hf-mirror\.com/,
    );

    // The README's command, with the mirror's address changed to the hub stand-in's.
    const host = new URL(hub.endpoint).host;
    const command = mirrored.replace(mirror, hub.endpoint).replace(
      "--allow-net=hf-mirror.com",
      `--allow-net=${host}`,
    );
    const pulled = await runInHome(command, home, undefined);
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stdout, new RegExp(`^installed ${README_MODEL} \\(fp32, 7 files\\)`));
  } finally {
    await hub.close();
    await Deno.remove(home, { recursive: true });
  }
});

/**
 * Runs a README command with bash in a fresh `home`, `deno` as the README's reader has it (the
 * one running this suite) and `HF_ENDPOINT` when given; fails on a permission error in its
 * output unless `permissionErrors` says one is expected.
 */
async function runInHome(
  command: string,
  home: string,
  hubEndpoint: string | undefined,
  options: { permissionErrors?: boolean } = {},
) {
  const result = await runAsReader(command, home, hubEndpoint ? { HF_ENDPOINT: hubEndpoint } : {});
  if (!options.permissionErrors) {
    assert.ok(!/PermissionDenied|NotCapable|Requires .* access/.test(result.stderr), result.stderr);
  }
  return result;
}
