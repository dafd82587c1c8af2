/**
 * Which glossary terms a text matches (DECISIONS.md, "Glossaries"), seen through the real
 * service: the terms a chat engine is given and `Svc-Glossary-Report`. Whole words and case
 * folding for spaced scripts, substrings for scripts without spaces, longest match first, NFC.
 */
import assert from "node:assert/strict";
import { GlossarySchema } from "../../../schemas/glossary.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { promptTerms } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

interface MatchingCase {
  name: string;
  source: string;
  target: string;
  /** TSV entries of the dictionary. */
  entries: string;
  text: string;
  /** The glossary's source terms given to the engine (sorted), i.e. the distinct terms matched. */
  terms: string[];
  format?: "html" | "markdown";
  mode?: "message" | "subtitle";
}

const MATCHING: MatchingCase[] = [
  {
    name: "whole words only, in any case",
    source: "en",
    target: "de",
    entries: "cat\tKatze\n",
    text: "Cat and cats, a CAT; concatenate.",
    terms: ["cat"],
  },
  {
    name: "no match inside longer words",
    source: "en",
    target: "de",
    entries: "cat\tKatze\n",
    text: "Cats concatenate.",
    terms: [],
  },
  {
    name: "overlapping terms: the longest wins, the shorter still matches elsewhere",
    source: "en",
    target: "de",
    entries: "data\tDaten\ndata base\tDatenbank\nbase\tBasis\n",
    text: "The data base and the data.",
    terms: ["data", "data base"],
  },
  {
    name: "the longest wins even when it starts later",
    source: "en",
    target: "de",
    entries: "new york\tNY\nyork city\tYC\nnew\tneu\n",
    text: "new york city",
    terms: ["new", "york city"],
  },
  {
    name: "terms with punctuation inside or at the end",
    source: "en",
    target: "de",
    entries: "node.js\t\nc++\t\njs\tJS\n",
    text: "Node.js and C++ code",
    terms: ["c++", "node.js"],
  },
  {
    name: "a decomposed term matches a composed text (NFC)",
    source: "fr",
    target: "en",
    entries: "cafe\u0301\tcoffee\n",
    text: "Un caf\u00e9 noir",
    terms: ["caf\u00e9"],
  },
  {
    name: "a composed term matches a decomposed text (NFC)",
    source: "fr",
    target: "en",
    entries: "caf\u00e9\tcoffee\n",
    text: "Un cafe\u0301 noir",
    terms: ["caf\u00e9"],
  },
  {
    name: "case folding beyond ASCII, with composed diacritics",
    source: "vi",
    target: "en",
    entries: "Hà Nội\tHanoi\n",
    text: "HÀ NỘI là thủ đô",
    terms: ["Hà Nội"],
  },
  {
    name: "substrings in Chinese, the longest first",
    source: "zh-Hans",
    target: "en",
    entries: "数据库\tdatabase\n数据\tdata\n据\tevidence\n",
    text: "我们的数据库和数据",
    terms: ["数据", "数据库"],
  },
  {
    name: "substrings in Thai",
    source: "th",
    target: "en",
    entries: "ฐานข้อมูล\tdatabase\n",
    text: "ระบบฐานข้อมูลของเรา",
    terms: ["ฐานข้อมูล"],
  },
  {
    name: "substrings in Khmer",
    source: "km",
    target: "en",
    entries: "កុំព្យូទ័រ\tcomputer\n",
    text: "ខ្ញុំមានកុំព្យូទ័រ",
    terms: ["កុំព្យូទ័រ"],
  },
  {
    name: "a Latin term inside a Chinese text",
    source: "zh-Hant",
    target: "en",
    entries: "api\tAPI\n",
    text: "使用API接口",
    terms: ["api"],
  },
  {
    name: "a Japanese character next to a term of a spaced script is a word boundary",
    source: "en",
    target: "de",
    entries: "database\tDatenbank\n",
    text: "東京のdatabaseを開く",
    terms: ["database"],
  },
  {
    name: "a term with an ASCII apostrophe or hyphen matches the typographic ones in the text",
    source: "en",
    target: "de",
    entries: "don't\tnicht\nit's\tes ist\nwe're\twir sind\ne-mail\tE-Mail\nwi-fi\tWLAN\n",
    text: "Don\u2019t say it\u2018s late, we\u02bcre on e\u2010mail and wi\u2011fi.",
    terms: ["don't", "e-mail", "it's", "we're", "wi-fi"],
  },
  {
    name: "a term with a typographic apostrophe matches an ASCII one in the text",
    source: "fr",
    target: "en",
    entries: "aujourd\u2019hui\ttoday\n",
    text: "C'est aujourd'hui.",
    terms: ["aujourd\u2019hui"],
  },
  {
    name: "a multi-word term broken by a wrapped line or doubled spaces",
    source: "en",
    target: "de",
    entries: "translation memory\tÜbersetzungsspeicher\nNew York\tNeuyork\n",
    text: "Open the translation\nmemory, then New  York.",
    terms: ["New York", "translation memory"],
    format: "markdown",
  },
  {
    // Terms are looked up by their first word, then what follows it (term_matcher.ts).
    name: "many terms sharing their first word, one of them wrapped over lines",
    source: "en",
    target: "de",
    entries: "the data\tdie Daten\nthe data base\tdie Datenbank\nthe end\tdas Ende\n" +
      "the(x)\tX\nthe\tder\n(the\tY\n",
    text: "Read the data\n  base to the end, the(x) (the",
    terms: ["(the", "the data base", "the end", "the(x)"],
  },
  {
    // More than 8 terms below one node are spread out a unit at a time (term_matcher.ts).
    name: "a dozen terms sharing their first word, some wrapped or sharing longer prefixes",
    source: "en",
    target: "de",
    entries: Array.from({ length: 12 }, (_, i) => `the data set ${i}\tD${i}\n`).join("") +
      "the data set\tDS\nthe data\tDaten\nthe database\tDB\n",
    text: "Open the data\n set 11, the data set 3, the database, the data set 1x and the data.",
    terms: ["the data", "the data set", "the data set 11", "the data set 3", "the database"],
  },
  {
    name: "a dozen Chinese terms sharing a prefix",
    source: "zh-Hans",
    target: "en",
    entries:
      Array.from({ length: 12 }, (_, i) => `数据库${"甲乙丙丁戊己庚辛壬癸子丑"[i]}\tDB${i}\n`)
        .join("") + "数据\tdata\n",
    text: "用数据库丙和数据库丑，还有数据",
    terms: ["数据", "数据库丑", "数据库丙"],
  },
  {
    name: "a term across inline markup, but not across a code span between its words",
    source: "en",
    target: "de",
    entries: "New York\tNeuyork\ndatabase server\tDatenbankserver\n",
    text: "<p>I love <b>New</b> York and the database <code>db</code> server.</p>",
    terms: ["New York"],
    format: "html",
  },
  {
    // `\_` is kept whole as a placeholder, but it reads as "_": one identifier, no word break.
    name: "a term is not found inside a Markdown identifier written with an escaped underscore",
    source: "en",
    target: "de",
    entries: "connections\tVerbindungen\nmax\tHöchstwert\n",
    text: "Raise max\\_connections on *busy* hosts.",
    terms: [],
    format: "markdown",
  },
  {
    name: "a term spelled like a placeholder (a product X1) is not found in the markup's tokens",
    source: "en",
    target: "de",
    entries: "x1\tX-Eins\nx2\t\n",
    text: "<p>Click <b>Save</b> on the <i>X2</i> now.</p>",
    terms: ["x2"],
    format: "html",
  },
  {
    name: "a term is never found inside a URL, an e-mail address or a bare domain",
    source: "en",
    target: "de",
    entries: "example\tBeispiel\n",
    text: "See https://example.com/docs for details, mail me at example@corp.com or open " +
      "www.example.org and example.net.",
    terms: [],
  },
  {
    name: "a term is never found inside an address in HTML text",
    source: "en",
    target: "de",
    entries: "example\tBeispiel\n",
    text: "<p>See https://example.com/docs or mail <b>example@corp.com</b>.</p>",
    terms: [],
    format: "html",
  },
  {
    name: "a term is never found inside an address in Markdown, an autolink or a link's target",
    source: "en",
    target: "de",
    entries: "example\tBeispiel\n",
    text: "See <https://example.com/docs>, [the docs](https://example.com/x), " +
      "https://example.org or example@corp.com.",
    terms: [],
    format: "markdown",
  },
  {
    name: "a term is never found inside an address of a message or a subtitle cue",
    source: "en",
    target: "de",
    entries: "example\tBeispiel\n",
    text: "Ping me at example@corp.com\nor https://example.com/docs",
    terms: [],
    mode: "subtitle",
  },
  {
    name: "a term is found beside an address it is not part of",
    source: "en",
    target: "de",
    entries: "example\tBeispiel\n",
    text: "An example: https://example.com/docs",
    terms: ["example"],
    mode: "message",
  },
  {
    name: "a term is never found inside a file path",
    source: "en",
    target: "de",
    entries: "database\tDatenbank\nexample\tBeispiel\n",
    text: "Edit /etc/database/main.conf, ../example/x or C:\\Tools\\database.ini",
    terms: [],
  },
  {
    name: "a term is found beside a slash that is no path (client/server)",
    source: "en",
    target: "de",
    entries: "server\tServer\n",
    text: "The client/server model",
    terms: ["server"],
  },
  {
    name: "a dot between letters joins a word: NET, ASP and js are not in ASP.NET or Node.js",
    source: "en",
    target: "de",
    entries: "net\tNetz\nasp\tASP-X\njs\tJS\n",
    text: "ASP.NET and Node.js, or a net.",
    terms: ["net"],
  },
  {
    name: "a term starting with a dot is found after a space or a bracket",
    source: "en",
    target: "de",
    entries: ".net\t.NET-Plattform\n",
    text: "ASP.NET runs on .NET (.NET)",
    terms: [".net"],
  },
  {
    name: "a term starting with punctuation is not found right after a letter",
    source: "en",
    target: "de",
    entries: ".net\t.NET-Plattform\n",
    text: "VB.NET, ASP.NET",
    terms: [],
  },
  {
    name: "a Latin term in a Chinese text is not found inside a longer Latin word",
    source: "zh-Hans",
    target: "en",
    entries: "api\tAPI\n",
    text: "使用rapid框架和capi",
    terms: [],
  },
];

for (const c of MATCHING) {
  Deno.test(`glossary matching through /v1/translate: ${c.name}`, async () => {
    await withStandInService({ glossary: "apply" }, async (service, runner) => {
      const glossary = await expectBody(
        await dataRequest(service, "POST", "/v1/glossaries", {
          name: c.name,
          dictionaries: [{
            source_lang: c.source,
            target_lang: c.target,
            entries: c.entries,
            entries_format: "tsv",
          }],
        }),
        201,
        GlossarySchema,
      );
      const response = await postTranslate(service, {
        source: c.source,
        target: c.target,
        texts: [c.text],
        format: c.format,
        mode: c.mode,
        options: { engine: "engine-one", glossary_id: glossary.glossary_id },
      });
      const report = response.headers.get("svc-glossary-report");
      await expectBody(response, 200, TranslateResponseSchema);
      const messages = runner.chats[0].messages as { role: string; content: string }[];
      const given = promptTerms(messages).map(([term]) => term).sort();
      assert.deepEqual(given, c.terms);
      // The stand-in applies what it is given, so every matched term is applied.
      assert.equal(report, `matched=${c.terms.length}; applied=${c.terms.length}`);
    });
  });
}
