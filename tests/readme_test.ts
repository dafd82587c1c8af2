/**
 * The README's commands, run as written: the shell block of "Using the translation service"
 * (token capture with `npx -y deno@2.9.6 task tolk token show`, then every curl in order)
 * against a running `tolk serve`, with only the port changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { z } from "zod";
import {
  CapabilitiesResponseSchema,
  DetectResponseSchema,
  HealthResponseSchema,
  TranslateResponseSchema,
} from "../schemas/translation.ts";
import {
  codeBlockAfter,
  READER_SHELL_OPTIONS,
  shellCommandsUnder,
} from "./support/readme_commands.ts";
import { runTolkProcess, startTolkServer } from "./support/tolk_process.ts";
import { FIXTURE_MODEL, FIXTURE_MODELS_DIR } from "./support/translation_service.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const README_ADDRESS = "http://127.0.0.1:8765";
const SEPARATOR = "@@@ tolk readme test @@@";

const SCHEMA_BY_PATH: Array<[string, z.ZodType]> = [
  ["/v1/health", HealthResponseSchema],
  ["/v1/capabilities", CapabilitiesResponseSchema],
  ["/v1/detect", DetectResponseSchema],
  ["/v1/translate", TranslateResponseSchema],
];

Deno.test("the README's token capture and curl examples work when pasted in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-readme-" });
  const env = {
    TOLK_CONFIG: join(dir, "settings.json"),
    TOLK_DATA_DIR: dir,
    TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
  };
  await Deno.writeTextFile(
    env.TOLK_CONFIG,
    JSON.stringify({ engines: { "local-llm": { model: FIXTURE_MODEL } } }),
  );
  const token = (await runTolkProcess(["api", "enable"], env)).stdout.trim();
  const server = await startTolkServer(["serve", "--port", "0"], env);
  try {
    const commands = await shellCommandsUnder("## Using the translation service");
    assert.equal(commands[0], "TOKEN=$(npx -y deno@2.9.6 task tolk token show)");
    const script = [
      "set -e",
      ...commands.map((command) =>
        `${command.replaceAll(README_ADDRESS, server.url)}\nprintf '\\n${SEPARATOR}\\n'`
      ),
      'printf "%s" "$TOKEN"',
    ].join("\n");
    const output = await new Deno.Command("bash", {
      args: [...READER_SHELL_OPTIONS, "-c", script],
      cwd: ROOT,
      env: { ...env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const outputs = new TextDecoder().decode(output.stdout).split(`\n${SEPARATOR}\n`);
    assert.equal(outputs.pop(), token, "TOKEN holds the token alone");
    assert.equal(outputs.shift(), "", "the token capture prints nothing");
    const curls = commands.slice(1);
    assert.equal(outputs.length, curls.length);
    curls.forEach((command, index) => {
      const [path, schema] = SCHEMA_BY_PATH.find(([path]) =>
        new RegExp(`${path}( |$)`).test(command)
      )!;
      const parsed = schema.safeParse(JSON.parse(outputs[index]));
      assert.ok(parsed.success, `${path}: ${outputs[index]}`);
    });
    // The answer the README shows for its translate curl has the fields the real one has.
    const example = await readmeTranslationExample();
    const translated = JSON.parse(
      outputs[curls.findIndex((curl) => curl.includes("/v1/translate"))],
    );
    assert.deepEqual(fieldNames(example), fieldNames(translated));
    assert.equal(example.usage.input_chars, translated.usage.input_chars);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/** The README's example answer, its elisions (`, …`) left out. */
async function readmeTranslationExample() {
  const text = await codeBlockAfter("A translation answers one result per item", "json");
  return JSON.parse(text.replace(/,\s*…\s*\]/g, "]"));
}

/** The field names of a JSON value at every depth (an array by its first item). */
function fieldNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [fieldNames(value[0])];
  if (value === null || typeof value !== "object") return typeof value;
  return Object.fromEntries(
    Object.keys(value).sort().map((
      key,
    ) => [key, fieldNames((value as Record<string, unknown>)[key])]),
  );
}
