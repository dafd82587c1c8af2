/**
 * The README's paragraph on interpolation variables, checked against the service: the formats it
 * names (and "all modes but `subtitle`") are exactly those whose items bring every variable it
 * lists back as written without the engine reading it as words, and its prose examples reach the
 * engine as text. Run through engine-one against a stand-in that upper-cases, so a variable read
 * as words comes back changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  TranslateResponseSchema,
  TRANSLATION_FORMATS,
  TRANSLATION_MODES,
} from "../../schemas/translation.ts";
import { upperCase } from "../support/format_engines.ts";
import { expectBody } from "../support/http_assertions.ts";
import { startOllamaStandIn } from "../support/ollama_stand_in.ts";
import { postTranslate, withTranslationService } from "../support/translation_service.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** What the paragraph says: the formats named, the variables listed, the prose examples. */
async function readmeVariables() {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const [, formats, variables, prose] = readme.match(
    /In every format \(([^;]*); all modes but `subtitle`\) the interpolation variables of UI strings come back as written and never reach the engine as words: (.*?), in HTML's translated attributes too .*? ICU's .*? Prose that only looks like one stays text \((.*?)\)/,
  ) ?? [];
  assert.ok(formats, "the README has the paragraph on interpolation variables");
  const quoted = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map(([, v]) => v);
  return {
    formats: quoted(formats, /"(\w+)"/g),
    variables: quoted(variables, /`([^`]+)`/g),
    prose: quoted(prose, /`([^`]+)`/g),
  };
}

/** An item of `format` holding `sentence`. */
function itemOf(format: string, sentence: string): string {
  return format === "html" || format === "xml" ? `<p>${sentence}</p>` : sentence;
}

Deno.test("the formats the README says keep interpolation variables are the formats that keep them", async () => {
  const { formats, variables, prose } = await readmeVariables();
  assert.ok(variables.length >= 10 && prose.length >= 2, JSON.stringify({ variables, prose }));
  const sent: string[] = [];
  const runner = startOllamaStandIn({
    translate: (text) => {
      sent.push(text);
      return upperCase(text);
    },
  });
  const keeping: string[] = [];
  try {
    await withTranslationService(async (service) => {
      for (const format of TRANSLATION_FORMATS) {
        const kept: boolean[] = [];
        for (const mode of TRANSLATION_MODES.filter((mode) => mode !== "subtitle")) {
          sent.length = 0;
          const texts = [...variables, ...prose].map((text) => itemOf(format, `Open ${text} now`));
          const response = await postTranslate(service, {
            source: "en",
            target: "de",
            format,
            mode,
            texts,
            options: { engine: "engine-one" },
          });
          const { results } = await expectBody(response, 200, TranslateResponseSchema);
          const back = results.map(({ text }) => text);
          // Each variable as written in the answer, never in the engine's text.
          kept.push(
            variables.every((variable, index) =>
              back[index] === itemOf(format, `OPEN ${variable} NOW`) &&
              !sent.some((text) => text.includes(variable))
            ),
          );
          // Prose that only looks like a variable reaches the engine as words.
          for (const example of prose) {
            assert.ok(sent.some((text) => text.includes(example)), `${format}/${mode}: ${example}`);
          }
        }
        assert.ok(kept.every((each) => each === kept[0]), `${format}: the same in every mode`);
        if (kept[0]) keeping.push(format);
      }
      // "All modes but `subtitle`": a cue's text reaches the engine as written.
      sent.length = 0;
      const cues = variables.map((variable) => `Open ${variable} now`);
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        mode: "subtitle",
        texts: cues,
        options: { engine: "engine-one" },
      });
      await expectBody(response, 200, TranslateResponseSchema);
      assert.deepEqual(variables.filter((variable) => !sent.join("\n").includes(variable)), []);
    }, { settings: { engines: { "engine-one": { base_url: runner.baseUrl } } } });
  } finally {
    await runner.stop();
  }
  assert.deepEqual(formats, keeping);
  assert.deepEqual(formats, [...TRANSLATION_FORMATS], "every format, as the README says");
});
