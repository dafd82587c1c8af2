/**
 * The names the README gives a translation's `engine` and `model` when no engine translated it:
 * `passthrough` when every item was already in the target language, `memory` when the memory
 * answered the rest. A reader who switches on `engine` meets both; the service must answer them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { postTranslate, withTranslationService } from "../support/translation_service.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The README with its line breaks as spaces, so a phrase may wrap anywhere. */
async function readmeText(): Promise<string> {
  return (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
}

Deno.test("the README names the engine of an answer that needed none, as the service does", async () => {
  const readme = await readmeText();
  const passthrough = "`engine` and `model` are `passthrough` when no item needed a model";
  assert.ok(readme.includes(passthrough), passthrough);
  const memory = "`engine` and `model` are `memory` when nothing else was needed";
  assert.ok(readme.includes(memory), memory);

  await withTranslationService(async (service) => {
    const same = await postTranslate(service, {
      source: "auto",
      target: "en",
      texts: ["Good morning, how are you today?"],
    });
    const sameBody = await same.json();
    assert.equal(same.status, 200, JSON.stringify(sameBody));
    assert.deepEqual([sameBody.engine, sameBody.model], ["passthrough", "passthrough"]);

    const added = await fetch(`${service.url}/v1/memory/entries`, {
      method: "POST",
      headers: { "x-svc-token": service.token, "content-type": "application/json" },
      body: JSON.stringify({
        source_lang: "en",
        target_lang: "de",
        entries: [{ source: "Save your work.", target: "Speichern Sie Ihre Arbeit." }],
      }),
    });
    assert.equal(added.status, 201, await added.text());
    const remembered = await postTranslate(service, {
      source: "en",
      target: "de",
      texts: ["Save your work."],
      options: { memory: true },
    });
    const rememberedBody = await remembered.json();
    assert.equal(remembered.status, 200, JSON.stringify(rememberedBody));
    assert.deepEqual([rememberedBody.engine, rememberedBody.model], ["memory", "memory"]);
  });
});
