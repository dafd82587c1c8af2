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

Deno.test("format xml leaves a feed's machine-read fields (dates, language, ids, authors, categories) as written and translates its text fields", async () => {
  // WordPress's RSS and the Atom RFC's example, trimmed.
  const rss = '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"\n' +
    '\txmlns:content="http://purl.org/rss/1.0/modules/content/"\n' +
    '\txmlns:dc="http://purl.org/dc/elements/1.1/"\n' +
    '\txmlns:sy="http://purl.org/rss/1.0/modules/syndication/">\n<channel>\n' +
    "\t<title>My Blog &#8211; Notes &amp; more</title>\n\t<link>https://example.com</link>\n" +
    "\t<description>Just another WordPress site</description>\n" +
    "\t<lastBuildDate>Mon, 01 Jan 2024 10:00:00 +0000</lastBuildDate>\n" +
    "\t<language>en-US</language>\n\t<sy:updatePeriod>\n\thourly\t</sy:updatePeriod>\n" +
    "\t<image><title>My Blog</title><url>https://example.com/logo.png</url></image>\n" +
    "\t<item>\n\t\t<title>Hello world!</title>\n" +
    "\t\t<dc:creator><![CDATA[admin]]></dc:creator>\n" +
    "\t\t<pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate>\n" +
    "\t\t<category>Travel notes</category>\n" +
    '\t\t<guid isPermaLink="false">tag:example.com,2024:post-1</guid>\n' +
    "\t\t<content:encoded><![CDATA[\n<p>Welcome to WordPress.</p>\n]]></content:encoded>\n" +
    "\t</item>\n</channel>\n</rss>";
  const atom = '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n' +
    '  <title type="text">dive into mark</title>\n' +
    "  <updated>2005-07-31T12:29:29Z</updated>\n  <id>tag:example.org,2003:3</id>\n" +
    "  <rights>Copyright (c) 2003, Mark Pilgrim</rights>\n" +
    '  <generator uri="http://www.example.com/" version="1.0">Example Toolkit</generator>\n' +
    "  <entry>\n    <title>Atom draft-07 snapshot</title>\n" +
    "    <author><name>Mark Pilgrim</name></author>\n" +
    '    <category term="news" label="World news"/>\n' +
    '    <content type="xhtml">\n      <div xmlns="http://www.w3.org/1999/xhtml">\n' +
    "        <p><i>[Update: The Atom draft is finished.]</i></p>\n      </div>\n    </content>\n" +
    "  </entry>\n</feed>";
  const { texts, sent } = await translateFeeds([rss, atom]);
  assert.deepEqual(
    sent.toSorted(),
    [
      "Atom draft-07 snapshot",
      "Copyright (c) 2003, Mark Pilgrim",
      "Just another WordPress site",
      "Hello world!",
      "My Blog",
      "My Blog – Notes & more",
      "Welcome to WordPress.",
      "[Update: The Atom draft is finished.]",
      "dive into mark",
    ].toSorted(),
  );
  const upper = (text: string, runs: string[]) =>
    runs.reduce((done, run) => done.replace(run, run.toUpperCase()), text);
  assert.deepEqual(texts, [
    upper(rss, [
      "My Blog &#8211; Notes",
      "more</title>",
      "Just another WordPress site",
      "My Blog</title>",
      "Hello world!",
      "Welcome to WordPress.",
    ]).replaceAll("</TITLE>", "</title>"),
    upper(atom, [
      "dive into mark",
      "Copyright (c) 2003, Mark Pilgrim",
      "Atom draft-07 snapshot",
      "[Update: The Atom draft is finished.]",
    ]),
  ]);
});

Deno.test("format xml sends a feed title's &lt; as the character it stands for, and escapes it again in a changed answer", async () => {
  const rss = '<rss version="2.0"><channel><title>A &amp; B &lt;3</title>\n' +
    "<item><title>x &gt; 0 &lt; 2</title></item></channel></rss>";
  const { texts, sent } = await translateFeeds([rss], { "A & B <3": "A & B <3" });
  assert.deepEqual(sent.toSorted(), ["A & B <3", "x > 0 < 2"]);
  // Unchanged, a title is put back as written; changed, it is escaped for XML.
  assert.deepEqual(texts, [rss.replace("x &gt; 0 &lt; 2", "X &gt; 0 &lt; 2")]);
  const changed = await translateFeeds([rss], { "A & B <3": "A & B <3 <b>x</b>" });
  assert.deepEqual(changed.texts, [
    rss.replace("A &amp; B &lt;3", "A &amp; B &lt;3 &lt;b&gt;x&lt;/b&gt;")
      .replace("x &gt; 0 &lt; 2", "X &gt; 0 &lt; 2"),
  ]);
});

Deno.test("format xml sends a feed title mixing text and CDATA as one sentence, the CDATA part kept in its section", async () => {
  const rss = '<rss version="2.0"><channel>\n' +
    "<item><title>Hello <![CDATA[big & <bold>]]> world &amp; more</title></item>\n" +
    "<item><title><![CDATA[Only & CDATA]]></title></item></channel></rss>";
  const { texts, sent } = await translateFeeds([rss], {
    "Hello <x1>big & <bold></x1> world & more": "Hallo <x1>große ]]> & <fett></x1> Welt & mehr",
  });
  assert.deepEqual(sent.toSorted(), [
    "Hello <x1>big & <bold></x1> world & more",
    "Only & CDATA",
  ]);
  assert.deepEqual(texts, [
    rss.replace(
      "Hello <![CDATA[big & <bold>]]> world &amp; more",
      "Hallo <![CDATA[große ]]]]><![CDATA[> & <fett>]]> Welt &amp; mehr",
    ).replace("Only & CDATA", "ONLY & CDATA"),
  ]);
});

Deno.test("format xml reads a podcast's itunes:summary CDATA as HTML (Apple allows <p>, <a> there), its text as text", async () => {
  // Apple Podcasts' sample feed, trimmed.
  const rss = '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">\n<channel>\n' +
    "  <itunes:summary><![CDATA[<p>Love to get outdoors? " +
    '<a href="https://example.com/about">Learn more</a> about us.</p>]]></itunes:summary>\n' +
    '  <itunes:image href="https://example.com/artwork.jpg"/>\n' +
    "  <item>\n    <itunes:summary>Tips &amp; tricks &lt;3</itunes:summary>\n" +
    "    <itunes:duration>1079</itunes:duration>\n  </item>\n</channel>\n</rss>";
  const { texts, sent } = await translateFeeds([rss]);
  assert.deepEqual(sent.toSorted(), [
    "Love to get outdoors? <x1>Learn more</x1> about us.",
    "Tips & tricks <3",
  ]);
  assert.deepEqual(texts, [
    rss.replace("Love to get outdoors?", "LOVE TO GET OUTDOORS?")
      .replace("Learn more</a> about us.", "LEARN MORE</a> ABOUT US.")
      .replace("Tips &amp; tricks", "TIPS &amp; TRICKS"),
  ]);
});
