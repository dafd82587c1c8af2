/**
 * Substring matching in scripts written without spaces (DECISIONS.md, "Glossaries": th, lo, km,
 * my, zh, ja) never cuts a character in two: a term does not end before the vowel or tone marks
 * written on its last letter (Thai "เก" is not in "เก่ง", whose ก carries ่), while it is still
 * found before a letter ("เก" in "เกม"). Seen through the real service: the terms a chat engine
 * is given and `Svc-Glossary-Report`.
 */
import assert from "node:assert/strict";
import { createGlossary } from "../../support/glossary_service.ts";
import { promptTerms } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

const CASES: { name: string; source: string; entries: string; text: string; terms: string[] }[] = [
  {
    name: "Thai: not before a tone mark on the term's last letter",
    source: "th",
    entries: "เก\tGe\n",
    text: "เขาเก่งมาก",
    terms: [],
  },
  {
    name: "Thai: not before a vowel sign alone",
    source: "th",
    entries: "กร\tKr\n",
    text: "กรุงเทพ",
    terms: [],
  },
  {
    name: "Thai: still a substring before a letter",
    source: "th",
    entries: "เก\tGe\n",
    text: "เล่นเกมกัน",
    terms: ["เก"],
  },
  {
    name: "Khmer: not before a dependent vowel",
    source: "km",
    entries: "ក\tK\n",
    text: "កា",
    terms: [],
  },
];

for (const c of CASES) {
  Deno.test(`glossary substrings keep characters whole: ${c.name}`, async () => {
    await withStandInService({ glossary: "apply" }, async (service, runner) => {
      const { glossary_id } = await createGlossary(
        service,
        "clusters",
        [c.source, "en"],
        c.entries,
      );
      const response = await postTranslate(service, {
        source: c.source,
        target: "en",
        texts: [c.text],
        options: { engine: "engine-one", glossary_id },
      });
      const report = response.headers.get("svc-glossary-report");
      assert.equal(response.status, 200, await response.text());
      const messages = runner.chats[0].messages as { role: string; content: string }[];
      assert.deepEqual(promptTerms(messages).map(([term]) => term), c.terms);
      assert.equal(report?.startsWith(`matched=${c.terms.length};`), true, report ?? "");
    });
  });
}
