import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURE_MODELS, startFakeHub } from "../models/fake_hub.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

const tolk = runTolkProcess;

Deno.test("tolk models list shows every installed model with its dtypes and state", async () => {
  const run = await tolk(["models", "list", "--models-dir", FIXTURE_MODELS]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split("\n");
  assert.deepEqual(lines.map((line) => line.split(/\s+/)[0]), [
    "tolk-test/tiny-m2m100",
    "tolk-test/tiny-marian",
    "tolk-test/tiny-nllb",
  ]);
  assert.match(lines[1], /^tolk-test\/tiny-marian\s+q8\s+[\d.]+ MB\s+ready$/);
  assert.match(lines[2], /^tolk-test\/tiny-nllb\s+fp32\s+[\d.]+ MB\s+ready$/);
});

Deno.test("tolk models list reads TOLK_MODELS_DIR and says when it is empty", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await tolk(["models", "list"], { TOLK_MODELS_DIR: dir });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.ok(run.stderr.includes(`no models in ${dir}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tolk models pull downloads from HF_ENDPOINT and the model is listed", async () => {
  const hub = startFakeHub();
  const dir = await Deno.makeTempDir();
  try {
    const env = { HF_ENDPOINT: hub.endpoint };
    const pulled = await tolk(["models", "pull", "tolk-test/tiny-nllb", "--models-dir", dir], env);
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stdout, /^installed tolk-test\/tiny-nllb \(fp32, 7 files\)/);
    assert.match(pulled.stderr, /downloading onnx\/decoder_model_merged\.onnx/);
    const listed = await tolk(["models", "list", "--models-dir", dir]);
    assert.match(listed.stdout, /^tolk-test\/tiny-nllb\s+fp32\s+[\d.]+ MB\s+ready\n$/);

    const missing = await tolk(["models", "pull", "nobody/missing", "--models-dir", dir], env);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr.trim().split("\n").length, 1);
    assert.match(missing.stderr, /Cannot find model nobody\/missing/);
  } finally {
    await hub.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tolk models pull with no id pulls the settings' default model with progress on stderr", async () => {
  const hub = startFakeHub();
  const dir = await Deno.makeTempDir();
  try {
    const config = join(dir, "settings.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({ engines: { "local-llm": { model: "tolk-test/tiny-marian" } } }),
    );
    const env = { HF_ENDPOINT: hub.endpoint, TOLK_CONFIG: config };
    const pulled = await tolk(["models", "pull", "--models-dir", join(dir, "models")], env);
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.match(pulled.stdout, /^installed tolk-test\/tiny-marian \(q8, \d+ files\)/);
    assert.match(pulled.stderr, /downloading onnx\/encoder_model_quantized\.onnx/);
  } finally {
    await hub.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const BAD_ARGS = [
  { args: ["models"], flag: "models" },
  { args: ["models", "frob"], flag: "models" },
  { args: ["models", "pull", "a/b", "c"], flag: "models" },
  { args: ["models", "pull", "not an id"], flag: "models" },
  { args: ["models", "pull", "a/b", "--dtype", "fp64"], flag: "--dtype" },
  { args: ["models", "list", "--dtype", "fp32"], flag: "--dtype" },
  { args: ["models", "list", "--bogus"], flag: "--bogus" },
  { args: ["models", "list", "--models-dir"], flag: "--models-dir" },
];

Deno.test("tolk models refuses bad arguments with one line naming them and exit code 2", async () => {
  const runs = await Promise.all(BAD_ARGS.map(({ args }) => tolk(args)));
  runs.forEach((run, index) => {
    const { args, flag } = BAD_ARGS[index];
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    assert.ok(run.stderr.includes(flag), `${args.join(" ")}: ${run.stderr}`);
  });
});

Deno.test("tolk models pull names a redirect host outside its grant once, without a resume hint", async () => {
  const hub = startFakeHub();
  const dir = await Deno.makeTempDir();
  try {
    // The same server under another name: a CDN host the permission grant does not cover.
    hub.controls.redirectTo = hub.endpoint.replace("127.0.0.1", "localhost");
    const env = { HF_ENDPOINT: hub.endpoint };
    const pulled = await tolk(["models", "pull", "tolk-test/tiny-nllb", "--models-dir", dir], env);
    assert.equal(pulled.code, 1, pulled.stderr);
    const error = pulled.stderr.trim().split("\n").at(-1) ?? "";
    assert.match(error, /^tolk models: Cannot download config\.json: .*"localhost:\d+"/);
    assert.doesNotMatch(error, /resume|HF_ENDPOINT/);
    const tries = hub.controls.log.filter((line) => line.includes("/resolve/main/config.json"));
    assert.equal(tries.length, 1, "a refused host is not asked again");
  } finally {
    await hub.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tolk models pull into a models dir it cannot write says so in one line", async () => {
  const hub = startFakeHub();
  const dir = await Deno.makeTempDir();
  try {
    const notADir = join(dir, "models");
    await Deno.writeTextFile(notADir, "a file where the folder should be");
    const env = { HF_ENDPOINT: hub.endpoint };
    const pulled = await tolk(
      ["models", "pull", "tolk-test/tiny-nllb", "--models-dir", notADir],
      env,
    );
    assert.equal(pulled.code, 1, pulled.stderr);
    assert.equal(pulled.stderr.trim().split("\n").length, 1, pulled.stderr);
    assert.match(pulled.stderr, /^tolk models: Cannot install tolk-test\/tiny-nllb in .*models: /);
  } finally {
    await hub.close();
    await Deno.remove(dir, { recursive: true });
  }
});
