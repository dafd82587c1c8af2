/**
 * The README's second command ("Two commands": `npx -y deno@2.9.6 task test`) runs the whole
 * suite, so no test of the suite can run it; CI does. This checks that CI's script runs it as the
 * README writes it, and that the task it names runs every test under tests/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { shellCommandsUnder } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

Deno.test("CI runs the README's `npx -y deno@2.9.6 task test` as written, and the task runs tests/", async () => {
  const [, test] = await shellCommandsUnder("## Two commands");
  const command = test.match(/^(npx -y deno@2\.9\.6 task test) +# run the whole test suite$/)?.[1];
  assert.ok(command, test);
  const ci = await Deno.readTextFile(join(ROOT, ".ci/run"));
  assert.ok(
    ci.split("\n").some((line) => line.startsWith(`${command} `) || line === command),
    "CI runs the README's test command",
  );
  const { tasks } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  assert.equal(tasks.test.command, "deno test --allow-all tests/");
});
