/**
 * Glossary terms and the words a reader sees in marked-up text (README, "Glossaries"): a term
 * matches whole words of the visible text, so inline markup inside a word does not cut it in two
 * (`server<b>s</b>` is the word "servers", `<b>Ser</b>ver` the word "Server"), and a Markdown
 * escape is the character it escapes (`\_\_init\_\_` is `__init__`). Seen through the real
 * service: the terms a chat engine is given and `Svc-Glossary-Report`.
 */
import assert from "node:assert/strict";
import { GlossarySchema } from "../../../schemas/glossary.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { withBuiltInGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { promptTerms } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

interface MarkupWordCase {
  name: string;
  /** The dictionary's pair; en → de unless told. */
  pair?: [string, string];
  /** TSV entries of the dictionary. */
  entries: string;
  text: string;
  format?: "html" | "markdown";
  /** The source terms given to the engine (sorted). */
  terms: string[];
}

const CASES: MarkupWordCase[] = [
  {
    name:
      "text: a soft hyphen or zero-width space inside a word does not cut it (Daten\\u00adbank)",
    pair: ["de", "en"],
    entries: "datenbank\tdatabase\n",
    text: "Die Daten\u00adbank und die Daten\u200bbank.",
    terms: ["datenbank"],
  },
  {
    name: "html: a soft hyphen written &shy; inside a word does not cut it",
    pair: ["de", "en"],
    entries: "datenbank\tdatabase\n",
    text: "<p>Die Daten&shy;bank ist offen.</p>",
    format: "html",
    terms: ["datenbank"],
  },
  {
    name: "html: a plural ending in its own element is part of the word (server<b>s</b>)",
    entries: "server\tRechner\n",
    text: "<p>All server<b>s</b> are up.</p>",
    format: "html",
    terms: [],
  },
  {
    name: "html: a word split by an element still is the term (<b>Ser</b>ver)",
    entries: "server\tRechner\n",
    text: "<p>The <b>Ser</b>ver is up.</p>",
    format: "html",
    terms: ["server"],
  },
  {
    name: "html: a prefix in its own element is part of the word (<i>un</i>install)",
    entries: "install\tinstallieren\n",
    text: "<p>Click <i>un</i>install now.</p>",
    format: "html",
    terms: [],
  },
  {
    name: "html: an element beside a word with a space between still parts words",
    entries: "new york\tNY\nserver\tServer\n",
    text: "<p>I love <b>New</b> York, the <b>server</b> and the server.</p>",
    format: "html",
    terms: ["new york", "server"],
  },
  {
    name: "markdown: emphasis inside a word is part of the word (server**s**)",
    entries: "server\tRechner\n",
    text: "All server**s** are up.",
    format: "markdown",
    terms: [],
  },
  {
    name: "markdown: a word split by emphasis still is the term (**Ser**ver)",
    entries: "server\tRechner\n",
    text: "The **Ser**ver is up.",
    format: "markdown",
    terms: ["server"],
  },
  {
    name: "markdown: escaped underscores are the visible word (\\_\\_init\\_\\_)",
    entries: "__init__\t\n",
    text: "Call \\_\\_init\\_\\_ first.",
    format: "markdown",
    terms: ["__init__"],
  },
  {
    name: "markdown: no term inside an escaped word (init in \\_\\_init\\_\\_)",
    entries: "init\tInitialisierung\n",
    text: "Call \\_\\_init\\_\\_ first.",
    format: "markdown",
    terms: [],
  },
  {
    name: "markdown: an escaped punctuation term is the visible term (C\\+\\+)",
    entries: "c++\tC++\n",
    text: "Write it in C\\+\\+ today.",
    format: "markdown",
    terms: ["c++"],
  },
  {
    name: "markdown: an escaped underscore joins words, so no term inside (max\\_init)",
    entries: "init\tInitialisierung\n",
    text: "Set max\\_init and \\_init.",
    format: "markdown",
    terms: [],
  },
];

for (const c of CASES) {
  Deno.test(`glossary words in markup: ${c.name}`, async () => {
    await withStandInService({ glossary: "apply" }, async (service, runner) => {
      const glossary = await expectBody(
        await dataRequest(service, "POST", "/v1/glossaries", {
          name: "markup words",
          dictionaries: [{
            source_lang: (c.pair ?? ["en", "de"])[0],
            target_lang: (c.pair ?? ["en", "de"])[1],
            entries: c.entries,
            entries_format: "tsv",
          }],
        }),
        201,
        GlossarySchema,
      );
      const response = await postTranslate(service, {
        source: (c.pair ?? ["en", "de"])[0],
        target: (c.pair ?? ["en", "de"])[1],
        texts: [c.text],
        format: c.format,
        options: { engine: "engine-one", glossary_id: glossary.glossary_id },
      });
      const report = response.headers.get("svc-glossary-report");
      await expectBody(response, 200, TranslateResponseSchema);
      const messages = runner.chats[0].messages as { role: string; content: string }[];
      const given = promptTerms(messages).map(([term]) => term).sort();
      assert.deepEqual(given, c.terms, JSON.stringify(messages.at(-1)));
      assert.equal(report, `matched=${c.terms.length}; applied=${c.terms.length}`);
    });
  });
}

Deno.test("built-in engine: a term written with escapes or cut by emphasis comes back as the target, escapes and tags in place", async () => {
  await withBuiltInGlossary(
    "markup words",
    ["en", "de"],
    "max_connections\tmax_verbindungen\n__init__\t\nserver\tRechner\n",
    async (service, glossary) => {
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        format: "markdown",
        texts: ["Raise max\\_connections now.", "Call \\_\\_init\\_\\_ first.", "The **Ser**ver."],
        options: { engine: "local-llm", glossary_id: glossary.glossary_id },
      });
      assert.equal(response.headers.get("svc-glossary-report"), "matched=3; applied=3");
      const texts = (await expectBody(response, 200, TranslateResponseSchema)).results
        .map((result) => result.text);
      assert.match(texts[0], /max\\_verbindungen/, texts[0]);
      assert.doesNotMatch(texts[0], /max_/, texts[0]);
      assert.match(texts[1], /\\_\\_init\\_\\_/, texts[1]);
      assert.match(texts[2], /\*\*Rechner\*\*/, texts[2]);
    },
  );
});
