import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { EnvironmentError, parseEnvironment } from "../../settings/environment.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

const PARSES: Array<{ name: string; env: Record<string, string>; expected: object }> = [
  { name: "nothing set", env: {}, expected: {} },
  { name: "an empty value is unset", env: { TOLK_CONFIG: "", SVC_API_KEY: "" }, expected: {} },
  {
    name: "paths and keys are kept as given",
    env: { TOLK_CONFIG: "/c/s.json", SVC_API_KEY: "k", TOLK_BUILD: "2026-11-23.abc" },
    expected: { TOLK_CONFIG: "/c/s.json", SVC_API_KEY: "k", TOLK_BUILD: "2026-11-23.abc" },
  },
  {
    name: "a hub stand-in on loopback",
    env: { HF_ENDPOINT: "http://127.0.0.1:4000" },
    expected: { HF_ENDPOINT: "http://127.0.0.1:4000" },
  },
  { name: "variables tolk does not read are ignored", env: { PATH: "/bin" }, expected: {} },
];

for (const { name, env, expected } of PARSES) {
  Deno.test(`parseEnvironment: ${name}`, () => {
    const parsed = parseEnvironment((variable) => env[variable]);
    const present = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined));
    assert.deepEqual(present, expected);
  });
}

Deno.test("parseEnvironment names the variable whose value is unusable", () => {
  for (const endpoint of ["not a url", "ftp://hub.example"]) {
    assert.throws(
      () => parseEnvironment((variable) => variable === "HF_ENDPOINT" ? endpoint : undefined),
      (error) => error instanceof EnvironmentError && error.variable === "HF_ENDPOINT",
    );
  }
});

async function* productSources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    const skip = ["node_modules", "tests", "bench", ".git", ".tmp", "dist"];
    if (entry.isDirectory && !skip.includes(entry.name)) yield* productSources(path);
    else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}

Deno.test("no product module but settings/environment.ts reads an environment variable", async () => {
  const readers: string[] = [];
  for await (const path of productSources(ROOT)) {
    if (/Deno\.env\.|process\.env/.test(await Deno.readTextFile(path))) {
      readers.push(relative(ROOT, path));
    }
  }
  assert.deepEqual(readers, ["settings/environment.ts"]);
});
