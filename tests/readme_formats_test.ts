/**
 * The README's HTML, subtitle and XML examples, run as written with curl against the real service
 * (its address and token substituted).
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../schemas/translation.ts";
import { READER_SHELL_OPTIONS, shellBlockAfter } from "./support/readme_commands.ts";
import { withTranslationService } from "./support/translation_service.ts";

const MARKER = "<!-- readme-formats-examples";

Deno.test("the README's HTML, subtitle and XML curl examples answer as the README says", async () => {
  const script = await shellBlockAfter(MARKER);
  await withTranslationService(async (service) => {
    const run = script.replaceAll("http://127.0.0.1:8765", service.url)
      // Each answer on its own line, so the JSON bodies can be told apart.
      .replace(/(-d '[^']*')/g, "$1; echo");
    const output = await new Deno.Command("bash", {
      args: [...READER_SHELL_OPTIONS, "-c", run],
      env: { TOKEN: service.token },
      stdout: "piped",
    }).output();
    assert.equal(output.code, 0);
    const [html, subtitles, xml] = new TextDecoder().decode(output.stdout).trim().split("\n")
      .map((line) => TranslateResponseSchema.parse(JSON.parse(line)).results[0].text);
    const tags = (text: string) =>
      text.match(/<[^>]+>/g)?.map((tag) => tag.replace(/title="[^"]*"/, "title"));
    assert.deepEqual(tags(html), ["<p>", '<a href="/guide" title>', "</a>", "<b>", "</b>", "</p>"]);
    const lines = subtitles.split("\r\n");
    assert.deepEqual([lines[0], lines[1], lines.length], ["1", "00:00:01,000 --> 00:00:03,000", 5]);
    // The ignored element comes back as sent, every tag in place.
    assert.deepEqual(tags(xml), [
      '<string id="saved">',
      "<b>",
      "</b>",
      "<file>",
      "</file>",
      "</string>",
    ]);
    assert.ok(xml.includes("<file>notes.txt</file>"), xml);
  });
});
