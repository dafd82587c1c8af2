/**
 * RSS and Atom feeds under `format: "xml"`, over HTTP, as feeds are written: plain-text fields
 * in CDATA (`<title><![CDATA[…]]></title>`) are translated as text and keep their CDATA, and the
 * HTML a post carries entity-escaped (`&lt;p&gt;…`, RSS's usual way, and Atom's `type="html"`)
 * is read as HTML, its tags kept and written back escaped the same way.
 */
import assert from "node:assert/strict";
import { upperCase } from "../../support/format_engines.ts";
import { translateThrough } from "../../support/format_requests.ts";

/** Translates feeds with the stand-in answering `answers[text]`, else the text upper-cased. */
function translateFeeds(items: string[], answers: Record<string, string> = {}) {
  return translateThrough(
    items,
    { mode: "paragraph", format: "xml" },
    (text) => answers[text] ?? upperCase(text),
  );
}

Deno.test("format xml translates a feed's plain-text CDATA as text, keeping the section (an answer's ]]> split across two)", async () => {
  const rss = '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>\n' +
    "<title><![CDATA[Tom & Jerry: 1 < 2]]></title>\n<link>https://example.com/</link>\n" +
    "<item>\n<title><![CDATA[Hello world]]></title>\n" +
    "<dc:creator><![CDATA[Ana Lee]]></dc:creator>\n<category><![CDATA[News]]></category>\n" +
    "</item>\n</channel>\n</rss>\n";
  const atom = '<feed xmlns="http://www.w3.org/2005/Atom">\n' +
    '<title type="text"><![CDATA[Fish &amp; chips]]></title>\n' +
    "<entry><title><![CDATA[Plain title]]></title>" +
    '<content type="text"><![CDATA[Use a <b> tag]]></content></entry>\n</feed>';
  const { texts, sent } = await translateFeeds([rss, atom], { "Hello world": "Hallo ]]> Welt" });
  assert.deepEqual(sent.toSorted(), [
    "Fish &amp; chips",
    "Hello world",
    "Plain title",
    "Tom & Jerry: 1 < 2",
    "Use a <b> tag",
  ]);
  assert.deepEqual(texts, [
    rss.replace("Tom & Jerry: 1 < 2", "TOM & JERRY: 1 < 2")
      .replace("Hello world", "Hallo ]]]]><![CDATA[> Welt"),
    atom.replace("Fish &amp; chips", "FISH &AMP; CHIPS").replace("Plain title", "PLAIN TITLE")
      .replace("Use a <b> tag", "USE A <B> TAG"),
  ]);
});

Deno.test("format xml reads the entity-escaped HTML of an RSS description and an Atom type=html text as HTML, and writes it back escaped", async () => {
  const rss = '<?xml version="1.0"?>\n<rss version="2.0"><channel>\n' +
    "<description>News &amp; notes</description>\n<item>\n" +
    "<description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;" +
    "&lt;p&gt;Fish &amp;amp; chips &lt;img src=&quot;a.png&quot; alt=&quot;A cat&quot;&gt;" +
    "&lt;/p&gt;</description>\n</item>\n</channel></rss>";
  const atom = '<feed xmlns="http://www.w3.org/2005/Atom"><entry>' +
    '<summary type="html">&lt;p&gt;Hi &lt;em&gt;there&lt;/em&gt;, you&lt;/p&gt;</summary>' +
    "</entry></feed>";
  const { texts, sent } = await translateFeeds([rss, atom], {
    "Hello <x1>world</x1>": "Hallo <x1>Welt</x1> & <Co>",
  });
  assert.deepEqual(sent.toSorted(), [
    "A cat",
    "Fish & chips",
    "Hello <x1>world</x1>",
    "Hi <x1>there</x1>, you",
    "News & notes",
  ]);
  assert.deepEqual(texts, [
    rss.replace("News &amp; notes", "NEWS &amp; NOTES")
      .replace(
        "Hello &lt;b&gt;world&lt;/b&gt;",
        "Hallo &lt;b&gt;Welt&lt;/b&gt; &amp; &amp;lt;Co&gt;",
      )
      // HTML reads `&` before a space as itself: one XML escape suffices.
      .replace("Fish &amp;amp; chips", "FISH &amp; CHIPS").replace("A cat", "A CAT"),
    atom.replace("Hi &lt;em&gt;there&lt;/em&gt;, you", "HI &lt;em&gt;THERE&lt;/em&gt;, YOU"),
  ]);
});
