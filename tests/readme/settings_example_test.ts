/**
 * The README's settings file ("Configuration and where data lives"): its JSON example is what
 * `tolk api enable` writes on a fresh machine, and `tolk serve` reads it as written (with a real
 * token in place of `<base64url>`) with the API on and no unknown key; and the engine keys the
 * "LLM engines" section lists, with their defaults, are every key each engine section holds.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { codeBlockAfter } from "../support/readme_commands.ts";
import { runTolkProcess, startTolkServer } from "../support/tolk_process.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const TOKEN_PLACEHOLDER = "<base64url>";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` cut to the keys `shape` has, at every depth (arrays are compared whole). */
function projectOnto(value: Json, shape: Json): Json {
  if (shape === null || typeof shape !== "object" || Array.isArray(shape)) return value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.keys(shape).map((key) => [key, projectOnto(value[key] ?? null, shape[key])]),
  );
}

/** The settings file a fresh `tolk api enable` writes, and the token it printed. */
async function freshSettings(dir: string) {
  const env = { TOLK_CONFIG: join(dir, "settings.json"), TOLK_DATA_DIR: dir };
  const enabled = await runTolkProcess(["api", "enable"], env);
  assert.equal(enabled.code, 0, enabled.stderr);
  const file = JSON.parse(await Deno.readTextFile(env.TOLK_CONFIG));
  return { env, file, token: enabled.stdout.trim() };
}

async function inTempDir(body: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "tolk-readme-settings-" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the README's settings example is what `tolk api enable` writes, and `tolk serve` reads it", async () => {
  const text = await codeBlockAfter("## Configuration and where data lives", "json");
  assert.ok(text.includes(`"token": "${TOKEN_PLACEHOLDER}"`), text);
  await inTempDir(async (dir) => {
    const { env, file, token } = await freshSettings(dir);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/, "the token is base64url, as the example says");
    const example = JSON.parse(text.replace(TOKEN_PLACEHOLDER, token));
    assert.deepEqual(projectOnto(file, example), example);

    // The example itself as the settings file: the service takes its token, names no key.
    await Deno.writeTextFile(env.TOLK_CONFIG, text.replace(TOKEN_PLACEHOLDER, token));
    const server = await startTolkServer(["serve", "--port", "0"], env);
    try {
      const detect = await fetch(`${server.url}/v1/detect`, {
        method: "POST",
        headers: { "X-Svc-Token": token, "content-type": "application/json" },
        body: JSON.stringify({ texts: ["Guten Morgen"] }),
      });
      assert.equal(detect.status, 200, await detect.clone().text());
      await detect.body?.cancel();
    } finally {
      await server.stop();
    }
    assert.ok(
      !server.stderr.some((line) => /unknown keys|settings file/.test(line)),
      server.stderr.join("\n"),
    );
  });
});

/** The README's sentence "Keys of each section: `key` (default), …; `engine-one` adds …". */
async function readmeEngineKeys() {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const sentence = readme.match(/Keys of each section: (.*?)\. The prompts are data/)?.[1];
  assert.ok(sentence, "the README lists the keys of each engine section");
  const [common, oneAdds, othersAdd] = sentence.split(/; `engine-one` adds |, the other two /);
  assert.ok(othersAdd, sentence);
  const defaults = (part: string) =>
    Object.fromEntries(
      [...part.matchAll(/`([a-z_]+)` \((?:`([^`]+)`|(\d+))/g)].map((
        [, key, quoted, number],
      ) => [key, JSON.parse(quoted ?? number)]),
    );
  return { common: defaults(common), oneAdds: defaults(oneAdds), othersAdd: defaults(othersAdd) };
}

Deno.test("the README's engine keys and defaults are every key of each engine section", async () => {
  const { common, oneAdds, othersAdd } = await readmeEngineKeys();
  assert.equal(Object.keys(common).length, 5, JSON.stringify(common));
  await inTempDir(async (dir) => {
    const { file } = await freshSettings(dir);
    const sections: Array<[string, Record<string, unknown>]> = [
      ["engine-one", { ...common, ...oneAdds }],
      ["engine-two", { ...common, ...othersAdd }],
      ["compatible-api", { ...common, ...othersAdd }],
    ];
    for (const [engine, said] of sections) {
      const { base_url: _url, model: _model, api_key: _key, ...held } = file.engines[engine];
      assert.deepEqual(held, said, engine);
    }
  });
});
