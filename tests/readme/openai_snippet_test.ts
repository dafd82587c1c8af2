/**
 * The README's `openai` client snippet ("With the official `openai` client"), run as written with
 * `deno run` from the checkout against a real `tolk infer` serving the tiny GGUF fixture, with
 * only the port of its `baseURL` changed: the schema-constrained answer parses, so the snippet
 * prints the translation's `text`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startInferDaemon } from "../support/infer_daemon.ts";
import { codeBlockAfter } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const README_BASE = "http://127.0.0.1:8080/v1";

Deno.test("the README's openai client snippet prints the text of a schema-constrained answer", async () => {
  const snippet = await codeBlockAfter("With the official `openai` client:", "ts");
  assert.ok(snippet.includes(`baseURL: "${README_BASE}"`), snippet);
  const daemon = await startInferDaemon();
  // Inside the checkout, so `import OpenAI from "openai"` resolves through deno.json.
  await Deno.mkdir(join(ROOT, ".tmp"), { recursive: true });
  const file = await Deno.makeTempFile({ dir: join(ROOT, ".tmp"), suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, snippet.replace(README_BASE, `${daemon.baseUrl}/v1`));
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--allow-net=127.0.0.1", "--allow-env", "--allow-read", file],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.ok(stdout.endsWith("\n") && stdout.length > 1, JSON.stringify(stdout));
  } finally {
    await Deno.remove(file);
    await daemon.stop();
  }
});
