/**
 * The README's glossary, memory and history walk-through, run as written (bash and curl) against
 * the real service on loopback.
 */
import assert from "node:assert/strict";
import { READER_SHELL_OPTIONS, shellBlockAfter } from "../support/readme_commands.ts";
import { withTranslationService } from "../support/translation_service.ts";

const MARKER = "<!-- walkthrough: data";

Deno.test("the README's data walk-through runs as written and shows each feature at work", {
  ignore: !onPath("curl"),
}, async () => {
  const script = await shellBlockAfter(MARKER);
  assert.match(script, /\/glossaries/);
  await withTranslationService(async (service) => {
    const cwd = await Deno.makeTempDir({ prefix: "tolk-readme-" });
    try {
      const output = await new Deno.Command("bash", {
        args: [
          ...READER_SHELL_OPTIONS,
          "-euo",
          "pipefail",
          "-c",
          script.replaceAll("http://127.0.0.1:8765", service.url),
        ],
        env: { TOKEN: service.token, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
        cwd,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(output.stdout);
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 0, `${stdout}\n${stderr}`);
      assert.match(stdout, /"entries":"database\\tDatenbank\\ntolk\\t\\n"/);
      assert.match(stdout, /svc-glossary-report: matched=2; applied=\d/i);
      assert.match(stdout, /"engine":"memory".*"text":"Speichern Sie Ihre Arbeit\."/);
      assert.match(stdout, /\{"imported":1,"skipped":0\}/);
      assert.match(stdout, /"data":\[\{"id":"tr_/);
      assert.match(await Deno.readTextFile(`${cwd}/memory.tmx`), /<tmx version="1.4">/);
    } finally {
      await Deno.remove(cwd, { recursive: true });
    }
  });
});

/** True when `name` is an executable file in a PATH directory (no process is started). */
function onPath(name: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${name}`).isFile;
    } catch {
      return false;
    }
  });
}
