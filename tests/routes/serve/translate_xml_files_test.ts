/**
 * `format: "xml"` over HTTP with whole files localisation tools keep in XML (Android's
 * strings.xml, XLIFF, DITA): what a file marks as not to be translated is never sent and comes
 * back byte for byte.
 */
import assert from "node:assert/strict";
import { upperCase } from "../../support/format_engines.ts";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

async function translateXml(item: string) {
  const { texts, sent } = await translateUpperCased([item], { mode: "paragraph", format: "xml" });
  return { text: texts[0], sent };
}

Deno.test('format xml keeps an Android string marked translatable="false" as written', async () => {
  const item = '<resources>\n  <string name="app_name" translatable="false">Notes</string>\n' +
    "  <string-array name=\"units\" translatable = 'false'><item>km</item></string-array>\n" +
    '  <string name="hello">Hello there</string>\n</resources>';
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Hello there"]);
  assert.equal(text, item.replace("Hello there", "HELLO THERE"));
});

Deno.test('format xml keeps elements marked translate="no" (XLIFF, DITA, ITS) as written', async () => {
  const item =
    '<body>\n <trans-unit id="1" translate="no"><source>ACME Corp</source></trans-unit>\n' +
    ' <p>Open <ph translate="no">Settings</ph> and <b its:translate="no">Save</b> now.</p>\n' +
    " <p title=\"translate='no'\">Read this.</p>\n</body>";
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Open <x1/> and <x2/> now.", "Read this."]);
  assert.equal(
    text,
    item.replace("Open", "OPEN").replace(" and ", " AND ").replace("now.", "NOW.")
      .replace("Read this.", "READ THIS."),
  );
});

Deno.test("format xml sends an Android string unescaped and writes the answer back escaped for aapt", async () => {
  const item = "<resources>\n" +
    '  <string name="turn">It\\\'s %1$s\\\'s turn: say \\"hi\\"\\nthen %d more</string>\n' +
    '  <string name="home">\\@home \\u00e9t\\u00e9 and C:\\\\temp</string>\n' +
    '  <string name="quoted">"Don\'t panic"</string>\n' +
    '  <string name="save">Save the file</string>\n' +
    '  <string name="lines">\\tLine one\\nLine two\\u0020\\n</string>\n' +
    '  <string name="who">Hi <xliff:g id="name" example="Ana">Bob</xliff:g>!</string>\n' +
    '  <string-array name="units"><item>@string/km</item><item> ?android:attr/label </item>' +
    "<item>Miles</item></string-array>\n" +
    '  <string name="keep" translatable="false">Don\\\'t</string>\n</resources>';
  const answers: Record<string, string> = {
    "Save the file": '@Enregistrer l\'"fichier"\n\\',
  };
  const { texts, sent } = await translateThrough(
    [item],
    { mode: "paragraph", format: "xml" },
    (text) => answers[text] ?? upperCase(text),
  );
  assert.deepEqual(sent, [
    "It's <x1/>'s turn: say \"hi\"<x2/>then <x3/> more",
    "@home été and C:\\temp",
    "<x1/>Don't panic<x2/>",
    "Save the file",
    "<x1/>Line one<x2/>Line two<x3/>",
    "Hi <x1/>!",
    "Miles",
  ]);
  assert.equal(
    texts[0],
    item.replace(
      "It\\'s %1$s\\'s turn: say \\\"hi\\\"\\nthen %d more",
      "IT\\'S %1$s\\'S TURN: SAY \\\"HI\\\"\\nTHEN %d MORE",
    )
      .replace("\\@home \\u00e9t\\u00e9 and C:\\\\temp", "\\@HOME ÉTÉ AND C:\\\\TEMP")
      .replace('"Don\'t panic"', '"DON\\\'T PANIC"')
      .replace("Save the file", '\\@Enregistrer l\\\'\\"fichier\\"\\n\\\\')
      .replace("Line one\\nLine two", "LINE ONE\\nLINE TWO")
      .replace("Hi <xliff", "HI <xliff").replace("Miles", "MILES"),
  );
});

Deno.test("format xml translates the HTML a feed's description or content holds in CDATA, a text field's CDATA as text, no other CDATA", async () => {
  const rss = '<?xml version="1.0"?>\n<rss version="2.0"><channel><item>\n' +
    "<title>Hello world</title>\n" +
    '<description><![CDATA[<p>Hello <b>there</b>, friend &amp; co.</p><img src="a.png" alt="A cat">]]></description>\n' +
    "<content:encoded><![CDATA[<p>Read more</p>]]></content:encoded>\n" +
    "<dc:creator><![CDATA[Ana Lee]]></dc:creator>\n</item></channel></rss>";
  const atom = '<feed xmlns="http://www.w3.org/2005/Atom"><entry><summary type="html">' +
    '<![CDATA[<em>Nice</em> day]]></summary><content type="text"><![CDATA[Plain <text>]]>' +
    "</content></entry></feed>";
  const docbook = "<article><para>Run it.</para><programlisting><![CDATA[if (a < b) {\n" +
    '  print("Hello there");\n}]]></programlisting><description><![CDATA[<p>Not a feed</p>]]>' +
    "</description></article>";
  const { texts, sent } = await translateUpperCased([rss, atom, docbook], {
    mode: "paragraph",
    format: "xml",
  });
  assert.deepEqual(sent.toSorted(), [
    "<x1>Nice</x1> day",
    "A cat",
    "Hello <x1>there</x1>, friend & co.",
    "Hello world",
    "Plain <text>",
    "Read more",
    "Run it.",
  ]);
  assert.deepEqual(texts, [
    rss.replace("Hello world", "HELLO WORLD").replace(
      "Hello <b>there</b>, friend &amp; co.",
      "HELLO <b>THERE</b>, FRIEND &amp; CO.",
    )
      .replace("A cat", "A CAT").replace("Read more", "READ MORE"),
    atom.replace("Nice</em> day", "NICE</em> DAY").replace("Plain <text>", "PLAIN <TEXT>"),
    docbook.replace("Run it.", "RUN IT."),
  ]);
});

Deno.test("format xml translates the HTML an Android string holds in CDATA, read and written with aapt's escapes", async () => {
  // Html.fromHtml strings: the CDATA keeps the tags from XML, aapt still reads its escapes.
  const item = "<resources>\n" +
    '  <string name="help"><![CDATA[Tap <b>Save</b>, it\\\'s <a href="/x">here</a> &amp; now]]></string>\n' +
    '  <plurals name="files"><item quantity="other"><![CDATA[<i>%d</i> files]]></item></plurals>\n' +
    "</resources>";
  const { texts, sent } = await translateThrough(
    [item],
    { mode: "paragraph", format: "xml" },
    (text) => upperCase(text).replace("IT'S", "C'EST"),
  );
  assert.deepEqual(sent, ["Tap <x1>Save</x1>, it's <x2>here</x2> & now", "<x1><x2/></x1> files"]);
  assert.equal(
    texts[0],
    item.replace("Tap <b>Save</b>, it\\'s", "TAP <b>SAVE</b>, C\\'EST")
      .replace("here</a> &amp; now", "HERE</a> &amp; NOW").replace("</i> files", "</i> FILES"),
  );
});

Deno.test("format xml reads Android strings whose first element is <plurals> or <string-array>, or follows a comment, with aapt's escapes", async () => {
  const file = '<?xml version="1.0" encoding="utf-8"?>\n<!-- Copyright (C) 2024 -->\n' +
    '<resources xmlns:tools="http://schemas.android.com/tools">\n' +
    '  <plurals name="songs">\n    <item quantity="one">%d song, it\\\'s new</item>\n' +
    '    <item quantity="other">%d songs</item>\n  </plurals>\n' +
    '  <string-array name="days" tools:ignore="MissingTranslation">\n' +
    "    <item>Don\\'t wait</item>\n    <item>@string/today</item>\n  </string-array>\n" +
    "</resources>\n";
  const items = [
    file,
    '<!-- From Crowdin -->\n<plurals name="n"><item quantity="other">It\\\'s %d</item></plurals>',
    '<plurals name="n"><item quantity="one">It\\\'s one</item></plurals>',
    '<string-array name="a"><item>Don\\\'t</item></string-array>',
  ];
  const { texts, sent } = await translateThrough(
    items,
    { mode: "paragraph", format: "xml" },
    (text) => upperCase(text).replace("'", "’'"),
  );
  assert.deepEqual(
    sent.toSorted(),
    [
      "<x1/> song, it's new",
      "<x1/> songs",
      "Don't wait",
      "It's <x1/>",
      "It's one",
      "Don't",
    ].toSorted(),
  );
  assert.deepEqual(texts, [
    file.replace("song, it\\'s new", "SONG, IT’\\'S NEW").replace("%d songs", "%d SONGS")
      .replace("Don\\'t wait", "DON’\\'T WAIT"),
    items[1].replace("It\\'s", "IT’\\'S"),
    items[2].replace("It\\'s one", "IT’\\'S ONE"),
    items[3].replace("Don\\'t", "DON’\\'T"),
  ]);
});

Deno.test("format xml reads an Android string's entity-escaped HTML (&lt;b>, Android's way for Html.fromHtml) as HTML, with aapt's escapes", async () => {
  // developer.android.com's example: the `<` escaped, read by Html.fromHtml after getString.
  const item = "<resources>\n" +
    '  <string name="welcome">Hello, %1$s! You have &lt;b>%2$d new messages&lt;/b>. It\\\'s &lt;i>now&lt;/i>.</string>\n' +
    '  <string name="less">1 &lt; 2 isn\\\'t news</string>\n</resources>';
  const { texts, sent } = await translateThrough(
    [item],
    { mode: "paragraph", format: "xml" },
    (text) => upperCase(text).replace("IT'S", "C'EST"),
  );
  assert.deepEqual(sent, [
    "Hello, <x1/>! You have <x2><x3/> new messages</x2>. It's <x4>now</x4>.",
    "1 < 2 isn't news",
  ]);
  assert.equal(
    texts[0],
    item.replace("Hello, %1$s! You have", "HELLO, %1$s! YOU HAVE")
      .replace("new messages&lt;/b>. It\\'s &lt;i>now", "NEW MESSAGES&lt;/b>. C\\'EST &lt;i>NOW")
      .replace("2 isn\\'t news", "2 ISN\\'T NEWS"),
  );
});

Deno.test("format xml keeps the quoted attributes of an Android string's escaped link byte for byte and translates its text", async () => {
  // In aapt `"` quotes: the attribute's quotes must come back as they were.
  const item = "<resources>\n" +
    '  <string name="terms">Read &lt;a href="https://x.y/terms?a=1&amp;b=2">the terms&lt;/a> now.</string>\n' +
    '  <string name="quoted">Read &lt;a href=\\"https://x.y\\">the terms&lt;/a>.</string>\n</resources>';
  const { texts, sent } = await translateThrough(
    [item],
    { mode: "paragraph", format: "xml" },
    (text) =>
      text === "Read <x1>the terms</x1> now."
        ? 'Lisez <x1>l\'accord "AGB"</x1> maintenant.'
        : upperCase(text),
  );
  assert.deepEqual(sent, ["Read <x1>the terms</x1> now.", "Read <x1>the terms</x1>."]);
  assert.equal(
    texts[0],
    item.replace("Read &lt;a", "Lisez &lt;a")
      .replace("the terms&lt;/a> now.", 'l\\\'accord \\"AGB\\"&lt;/a> maintenant.')
      .replace('Read &lt;a href=\\"', 'READ &lt;a href=\\"')
      .replace("the terms&lt;/a>.", "THE TERMS&lt;/a>."),
  );
});

Deno.test("format xml translates a .resx file's string values and keeps its headers, typed and designer data and comments", async () => {
  // What Visual Studio writes (schema trimmed).
  const item = '<?xml version="1.0" encoding="utf-8"?>\n<root>\n' +
    '  <xsd:schema id="root" xmlns="" xmlns:xsd="http://www.w3.org/2001/XMLSchema"/>\n' +
    '  <resheader name="resmimetype">\n    <value>text/microsoft-resx</value>\n  </resheader>\n' +
    '  <resheader name="reader">\n    <value>System.Resources.ResXResourceReader, ' +
    "System.Windows.Forms, Version=4.0.0.0, Culture=neutral</value>\n  </resheader>\n" +
    '  <data name="Greeting" xml:space="preserve">\n' +
    "    <value>Hello, {0}! You have new messages &amp; mail.</value>\n" +
    "    <comment>Shown after login. {0} is the user name.</comment>\n  </data>\n" +
    '  <data name="Icon" type="System.Drawing.Bitmap, System.Drawing" ' +
    'mimetype="application/x-microsoft.net.object.bytearray.base64">\n' +
    "    <value>iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8</value>\n  </data>\n" +
    '  <data name="Width" type="System.Int32, mscorlib">\n    <value>120</value>\n  </data>\n' +
    '  <data name="Label1.Text" xml:space="preserve">\n    <value>Name</value>\n  </data>\n' +
    '  <data name="&gt;&gt;Label1.Name" xml:space="preserve">\n    <value>Label1</value>\n' +
    "  </data>\n" +
    '  <data name="$this.Text" xml:space="preserve"><value>Main window</value></data>\n' +
    '  <assembly alias="System.Drawing" name="System.Drawing, Version=4.0.0.0"/>\n</root>';
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Hello, <x1/>! You have new messages & mail.", "Name", "Main window"]);
  assert.equal(
    text,
    item.replace(
      "Hello, {0}! You have new messages &amp; mail.",
      "HELLO, {0}! YOU HAVE NEW MESSAGES &amp; MAIL.",
    )
      .replace("<value>Name</value>", "<value>NAME</value>")
      .replace("Main window", "MAIN WINDOW"),
  );
});

Deno.test("format xml keeps a DocBook chapter's code (programlisting, screen, command, filename) as written, as HTML keeps <pre> and <code>", async () => {
  const item = '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE chapter PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" ' +
    '"http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd">\n<chapter id="install">\n' +
    "  <title>Installing the tool</title>\n" +
    '  <para>Run <command>install</command> as in <xref linkend="setup"/>.</para>\n' +
    '  <programlisting language="sh">make install</programlisting>\n' +
    "  <screen>$ tolk --version\ntolk 1.0</screen>\n" +
    "  <note><para>Back up <filename>/etc/tolk.conf</filename> first.</para></note>\n</chapter>";
  // DocBook 5 names its namespace instead of a doctype.
  const five = '<article xmlns="http://docbook.org/ns/docbook" version="5.0">' +
    "<para>Call <function>init</function> once.</para><programlisting>init()</programlisting>" +
    "</article>";
  const { texts, sent } = await translateUpperCased([item, five], {
    mode: "paragraph",
    format: "xml",
  });
  assert.deepEqual(sent.toSorted(), [
    "Back up <x1/> first.",
    "Call <x1/> once.",
    "Installing the tool",
    "Run <x1/> as in <x2/>.",
  ]);
  assert.deepEqual(texts, [
    item.replace("Installing the tool", "INSTALLING THE TOOL").replace("Run <c", "RUN <c")
      .replace("> as in <", "> AS IN <").replace("Back up", "BACK UP").replace(
        " first.",
        " FIRST.",
      ),
    five.replace("Call <", "CALL <").replace(" once.", " ONCE."),
  ]);
});

Deno.test("format xml translates an SVG's <title>, <desc> and <text> and keeps its <style>, <script> and <metadata>", async () => {
  const item = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">\n' +
    "  <title>Sales chart</title>\n  <desc>Bars by quarter.</desc>\n" +
    "  <style>.label { font: 12px sans-serif; }</style>\n" +
    '  <script>alert("hi")</script>\n' +
    "  <metadata><rdf:RDF><rdf:Description>cc</rdf:Description></rdf:RDF></metadata>\n" +
    '  <text x="0" y="70" class="label">Total: <tspan font-weight="bold">42</tspan> units</text>\n' +
    "</svg>";
  const { text, sent } = await translateXml(item);
  assert.deepEqual(sent, ["Sales chart", "Bars by quarter.", "Total: <x1>42</x1> units"]);
  assert.equal(
    text,
    item.replace("Sales chart", "SALES CHART").replace("Bars by quarter.", "BARS BY QUARTER.")
      .replace("Total:", "TOTAL:").replace(" units", " UNITS"),
  );
});
