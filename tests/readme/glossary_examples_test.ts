/**
 * The examples the README gives of glossary matching ("Glossaries, translation memory and
 * history"), each taken from its sentence as written and sent to the real service: the entries
 * that are one source term as matching sees it, a Latin term among Chinese characters, a dot
 * between letters, and terms inside addresses. A README edit that changes an example changes what
 * is sent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { dataRequest } from "../support/data_requests.ts";
import { createGlossary } from "../support/glossary_service.ts";
import { expectError } from "../support/http_assertions.ts";
import { type TestService, withTranslationService } from "../support/translation_service.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The README's text, and the same with runs of white space as one space (sentences wrap). */
async function readme() {
  const text = await Deno.readTextFile(join(ROOT, "README.md"));
  return { text, flat: text.replace(/\s+/g, " ") };
}

/** The first match of `pattern` in `text`, its groups; fails naming what the README should say. */
function said(text: string, pattern: RegExp, what: string): string[] {
  const match = text.match(pattern);
  assert.ok(match, `the README says ${what}`);
  return match.slice(1);
}

/** How many glossary terms the service found in `text` (Svc-Glossary-Report's `matched`). */
async function matched(
  service: TestService,
  glossaryId: string,
  [source, target]: [string, string],
  text: string,
): Promise<number> {
  const response = await dataRequest(service, "POST", "/v1/translate", {
    source,
    target,
    texts: [text],
    options: { glossary_id: glossaryId },
  });
  await response.body?.cancel();
  assert.equal(response.status, 200, text);
  const report = response.headers.get("svc-glossary-report") ?? "";
  return Number(report.match(/^matched=(\d+);/)?.[1] ?? NaN);
}

Deno.test("the README's glossary entry examples are one source term each: a second is refused", async () => {
  const { text } = await readme();
  const pairs = [
    ...said(
      text,
      /each\s+source\s+term\s+once\s+as\s+matching\s+sees\s+it\s+\(([^)]*)\)/,
      "which terms are one",
    )[0]
      .matchAll(/`([^`]+)` is `([^`]+)`/g),
  ];
  assert.equal(pairs.length, 2, JSON.stringify(pairs));
  await withTranslationService(async (service) => {
    for (const [, written, seen] of pairs) {
      const response = await dataRequest(service, "POST", "/v1/glossaries", {
        name: "twice",
        dictionaries: [{
          source_lang: "en",
          target_lang: "de",
          entries: `${seen}\tA\n${written}\tB\n`,
          entries_format: "tsv",
        }],
      });
      const { error } = await expectError(
        response,
        400,
        "invalid_request",
        "dictionaries[0].entries",
      );
      assert.match(error.message, /line 2: source term .* already appears on line 1/, written);
    }
  });
});

Deno.test("the README's matching examples: a Latin term among Chinese, a dot inside a word, addresses", async () => {
  const { flat } = await readme();
  const [latin, chinese] = said(
    flat,
    /a Latin term there still is a whole Latin word: "([^"]+)" is not in "([^"]+)"/,
    "a Latin term among Chinese is a whole word",
  );
  const [net, dotNet, joined] = said(
    flat,
    /neither "([^"]+)" nor "([^"]+)" is in "([^"]+)", while "\2" is found after a space or a bracket/,
    "a dot between letters joins a word",
  );
  const [word, url, path, address] = said(
    flat,
    /\("([^"]+)" in `([^`]+)` or `([^`]+)`\), in any mode or format; a term that is a whole address \(`([^`]+)`\) still is/,
    "a term is never found inside an address",
  );
  await withTranslationService(async (service) => {
    const zh: [string, string] = ["zh-Hans", "en"];
    const zhGlossary = await createGlossary(
      service,
      "zh",
      zh,
      `${latin}\t${latin.toUpperCase()}\n`,
    );
    assert.equal(await matched(service, zhGlossary.glossary_id, zh, chinese), 0, chinese);
    const control = chinese.replace(/[a-z]+/i, latin);
    assert.equal(await matched(service, zhGlossary.glossary_id, zh, control), 1, control);

    const en: [string, string] = ["en", "de"];
    const entries = [net, dotNet, word, address].map((term) => `${term}\t${term}\n`).join("");
    const { glossary_id } = await createGlossary(service, "en", en, entries);
    const expected: Array<[string, number]> = [
      [`Built with ${joined} today.`, 0],
      [`Built with ${dotNet} today.`, 1],
      [`Built with (${dotNet}) today.`, 1],
      [`Read ${url} today.`, 0],
      [`Edit ${path} today.`, 0],
      [`An ${word} today.`, 1],
      [`Visit ${address} today.`, 1],
    ];
    for (const [text, count] of expected) {
      assert.equal(await matched(service, glossary_id, en, text), count, text);
    }
  });
});
