import assert from "node:assert/strict";
import { DEFAULT_TAG_OPTIONS } from "../../../translation/formats/format.ts";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { scannedTokens } from "../../../translation/formats/html_scanner.ts";
import { parse5Tokens } from "../../../translation/formats/html_tokenizer.ts";
import { dropPlaceholders, translateItem, upperCase } from "../../support/format_engines.ts";

const identity = (text: string) => text;

Deno.test("html keeps inline elements inside their sentence as placeholders", async () => {
  const html = '<p>Read <a href="/guide" class="x">the <b>full</b> guide</a> now.</p>';
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, ["Read <x1>the <x2>full</x2> guide</x1> now."]);
  assert.equal(
    result.text,
    '<p>READ <a href="/guide" class="x">THE <b>FULL</b> GUIDE</a> NOW.</p>',
  );
});

Deno.test("html translates alt, title, placeholder and aria-label, inside sentences too", async () => {
  const html =
    `<div title="Main box"><p>See <img src=cat.png alt='A cat'> here</p><input placeholder="Your name" aria-label=Name value="keep"></div>`;
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.equal(
    result.text,
    `<div title="MAIN BOX"><p>SEE <img src=cat.png alt='A CAT'> HERE</p><input placeholder="YOUR NAME" aria-label=NAME value="keep"></div>`,
  );
});

Deno.test("html never translates code, pre, script, style or notranslate, unless translate=yes inside", async () => {
  const html =
    `<p>Run <code>npm test</code> first.</p><pre>keep this</pre><script>var a = "x";</script>` +
    `<style>p{}</style><div translate="no">Brand <span translate="yes">but this</span> name</div>` +
    `<p class="lead notranslate">Acme</p>`;
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, ["Run <x1/> first.", "but this"]);
  assert.equal(
    result.text,
    `<p>RUN <code>npm test</code> FIRST.</p><pre>keep this</pre><script>var a = "x";</script>` +
      `<style>p{}</style><div translate="no">Brand <span translate="yes">BUT THIS</span> name</div>` +
      `<p class="lead notranslate">Acme</p>`,
  );
});

Deno.test("html ignore_tags: named elements kept whole, in any case, translate=yes inside or not", async () => {
  const html = '<p>Open <span class="ui">Settings <b>now</b></span> please.</p>' +
    '<Aside>Keep <em translate="yes">me</em>.</Aside><p>Last <x-brand>Acme</x-brand> one.</p>';
  const tags = { ...DEFAULT_TAG_OPTIONS, ignore: new Set(["SPAN", "aside", "x-brand"]) };
  const result = await translateItem(htmlFormat, html, upperCase, { tags });
  // An ignored element stays in its sentence as one placeholder, an unknown one as well: it
  // is inline, as any element HTML does not define.
  assert.deepEqual(result.sent, ["Open <x1/> please.", "Last <x1/> one."]);
  assert.equal(
    result.text,
    '<p>OPEN <span class="ui">Settings <b>now</b></span> PLEASE.</p>' +
      '<Aside>Keep <em translate="yes">me</em>.</Aside><p>LAST <x-brand>Acme</x-brand> ONE.</p>',
  );
  // An ignored element's attributes are not translated either.
  const image = '<p>See <img alt="The logo" src="a.png"> here.</p>';
  const withImage = { ...tags, ignore: new Set(["img"]) };
  assert.deepEqual((await translateItem(htmlFormat, image, upperCase, { tags: withImage })).sent, [
    "See <x1/> here.",
  ]);
  assert.ok((await translateItem(htmlFormat, image, upperCase)).text.includes('alt="THE LOGO"'));
  // The scanner and parse5's tokenizer keep the same elements whole.
  const ignored = new Set(["span", "aside", "x-brand"]);
  assert.deepEqual(scannedTokens(html, ignored), parse5Tokens(html, ignored));
});

Deno.test("html: an element running over a sentence break leaves its tags out of both sentences", async () => {
  const html = "<div><b>Bold start<div>inner text</div> tail</b></div>";
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, ["Bold start", "inner text", "tail"]);
  assert.equal(result.text, "<div><b>BOLD START<div>INNER TEXT</div> TAIL</b></div>");
});

const MALFORMED = [
  { name: "an unclosed inline tag", html: "<p>Hello <b>world</p> more text" },
  { name: "a stray <", html: "<p>a < b and c > d</p>" },
  { name: "a stray end tag", html: "<div>Text</span> more</div></div>" },
  { name: "entities", html: "<p>Tom &amp; Jerry&nbsp;&copy 2024 &#169; &#xA9;</p>" },
  { name: "misnested tags", html: "<p><b>bold <i>both</b> italic</i> plain</p>" },
  { name: "unquoted and odd attributes", html: "<img alt=Cat src=x><a title = 'T' href=x>y</a>" },
  {
    name: "a document with doctype and comments",
    html:
      "<!DOCTYPE html>\n<!-- c -->\n<html><head><title>Hi there</title></head><body><p>Text</p></body></html>",
  },
  { name: "a table without tbody", html: "<table><tr><td>One cell</td><td>Two</td></tr></table>" },
  { name: "text only", html: "Just text, no tags." },
  { name: "uppercase tags", html: "<P>Hello <B>World</B></P>" },
  {
    name: "elements named like Object properties",
    html: "<p><constructor>Hello</constructor> <toString>world</toString></p><li>x<td>y",
  },
  {
    name: "CRLF lines, emoji, NUL and uppercase attributes in text, RCDATA and raw text",
    html:
      "<P CLASS=x TITLE='Hi\r\nthere'>Line one\r\nline \u{1F600} two &amp;\u0000 three</P>\r\n" +
      "<title>T&amp;\r\nx</title><textarea>a\r\nb</textarea><!-- a - b --><style>p{}\r\n</style>",
  },
];

for (const { name, html } of MALFORMED) {
  Deno.test(`html with ${name} round-trips byte for byte through an identity engine`, async () => {
    const result = await translateItem(htmlFormat, html, identity);
    assert.equal(result.text, html);
    assert.equal(result.fallbacks, 0);
  });
}

Deno.test("html fallback keeps every tag when the engine drops placeholders", async () => {
  const html = '<p>Read <a href="/g">the guide</a> and <b>this</b>.<br>Next line</p>';
  const result = await translateItem(htmlFormat, html, dropPlaceholders);
  assert.equal(result.fallbacks, 1);
  assert.equal(result.text, '<p>READ <a href="/g">THE GUIDE</a> AND <b>THIS</b>.<br>NEXT LINE</p>');
});

Deno.test("html escapes translated text that would open a tag or an entity, and attribute quotes", async () => {
  const html = `<p title="Say hi" data-x=1>Plain text</p><img alt=cat>`;
  const result = await translateItem(
    htmlFormat,
    html,
    (text) => text === "Plain text" ? "<script>x</script> &amp fine" : `it's "${text}" now`,
  );
  assert.equal(
    result.text,
    `<p title="it's &quot;Say hi&quot; now" data-x=1>&lt;script>x&lt;/script> &amp;amp fine</p>` +
      `<img alt=it&#39;s&#32;&#34;cat&#34;&#32;now>`,
  );
});

Deno.test("html keeps stray end tags as tags: a block's separates sentences, an inline one is a placeholder", async () => {
  const html = "<p>One</div>two</p>\n<p>Bold</b> and <i>italic</em> text</p>\n</body>\n</html>\n";
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, ["One", "two", "Bold<x1/> and <x2/>italic<x3/> text"]);
  assert.equal(
    result.text,
    "<p>ONE</div>TWO</p>\n<p>BOLD</b> AND <i>ITALIC</em> TEXT</p>\n</body>\n</html>\n",
  );
});

Deno.test("html: a self-closing svg or math element holds nothing after it", async () => {
  const html =
    '<p>Icon <svg class="i"/> and <math/> text</p><p>Next <svg><path d="M0"/></svg> one</p>';
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, ["Icon <x1/> and <x2/> text", "Next <x1/> one"]);
});

Deno.test("html peels wrappers around a whole sentence however deep, and keeps inner ones", async () => {
  // Deeper than the runs sentenceGroups looks along token by token: its partner table decides.
  const depth = 40;
  const wrapped = "<i>".repeat(depth) + "Deep <b>bold</b> word" + "</i>".repeat(depth);
  const result = await translateItem(htmlFormat, `<p>${wrapped}</p>`, upperCase);
  assert.deepEqual(result.sent, ["Deep <x1>bold</x1> word"]);
  assert.equal(
    result.text,
    `<p>${wrapped.replace("Deep <b>bold</b> word", "DEEP <b>BOLD</b> WORD")}</p>`,
  );
  // A wrapper whose close is past a text run stays a placeholder pair inside the sentence.
  const inner = "<i>".repeat(depth) + "x" + "</i>".repeat(depth);
  const mixed = await translateItem(htmlFormat, `<p>Before ${inner} after</p>`, upperCase);
  assert.deepEqual(mixed.sent, [
    "Before " + Array.from({ length: depth }, (_, i) => `<x${i + 1}>`).join("") + "x" +
    Array.from({ length: depth }, (_, i) => `</x${depth - i}>`).join("") + " after",
  ]);
  assert.equal(mixed.text, `<p>BEFORE ${inner.replace("x", "X")} AFTER</p>`);
});

Deno.test("html: a block start tag ends an open <p> as HTML5 does, not past a button, table or cell", async () => {
  // What a refused `<p>` holds is not sent: where it ends decides what is.
  const closed = '<p translate="no">kept<div>sent one</div><p translate="no">kept<ul><li>sent two';
  assert.deepEqual((await translateItem(htmlFormat, closed, upperCase)).sent, [
    "sent one",
    "sent two",
  ]);
  const notPast = '<p translate="no">kept<button><div>kept too</div></button>' +
    "<table><tr><td><p>in a cell<div>after it</div></td></tr></table>";
  assert.deepEqual((await translateItem(htmlFormat, notPast, upperCase)).sent, [
    "in a cell",
    "after it",
  ]);
  // Deeply nested: each `<div>` ends the `<p>` before it, found without a walk down the stack;
  // end tags that close nothing are known as such without one either.
  const nested = '<div><p translate="no">kept'.repeat(2000) + "<div>sent</x></p>".repeat(3);
  const result = await translateItem(htmlFormat, nested, upperCase);
  assert.deepEqual(result.sent, ["sent", "sent", "sent"]);
  assert.equal(result.text, nested.replaceAll("sent", "SENT"));
});

Deno.test("html: custom and unknown elements and HTML's other phrasing elements stay in their sentence", async () => {
  const cases: [string, string[]][] = [
    ["<p>Hello <user-name>Alice</user-name>, welcome back!</p>", [
      "Hello <x1>Alice</x1>, welcome back!",
    ]],
    ['<p>Click <my-icon name="save"></my-icon> to save your work.</p>', [
      "Click <x1></x1> to save your work.",
    ]],
    ['<p>Go <router-link to="/a">home</router-link> or <blink>stay</blink>.</p>', [
      "Go <x1>home</x1> or <x2>stay</x2>.",
    ]],
    ["<p>Read <ruby>漢<rt>kan</rt></ruby> aloud, <nobr>no break</nobr> here.</p>", [
      "Read <x1>漢<x2/></x1> aloud, <x3>no break</x3> here.",
    ]],
    ['<p>Total: <output name="sum">12</output> items</p>', ["Total: <x1>12</x1> items"]],
    // A custom element holding blocks wraps sentences, it is not one.
    ["<my-card><h2>Title</h2><p>Body <b>text</b></p></my-card>", ["Title", "Body <x1>text</x1>"]],
    // HTML's blocks still end sentences.
    ["<div>One<section>Two</section><li>Three</li>Four</div>", ["One", "Two", "Three", "Four"]],
  ];
  for (const [html, sent] of cases) {
    const result = await translateItem(htmlFormat, html, upperCase);
    assert.deepEqual(result.sent, sent, html);
    assert.equal(result.text.toLowerCase(), html.toLowerCase(), html);
  }
});

Deno.test("html: character references reach the engine as their characters, and come back as written unless the engine changed the sentence", async () => {
  const cases: [string, string[]][] = [
    // All in references: no letter was left to translate or detect.
    ["<p>&#12371;&#12435;&#12395;&#12385;&#12399;&#19990;&#30028;</p>", ["こんにちは世界"]],
    ["<p>Xin ch&agrave;o c&aacute;c b&#7841;n</p>", ["Xin chào các bạn"]],
    // Quotes, `&`, `<`, `>` and a no-break space inside a run are text; `&E` is no reference.
    ["<p>It&#8217;s a &ldquo;quote&rdquo; &amp; F&E, 10&nbsp;km, &lt;div&gt;</p>", [
      "It’s a “quote” & F&E, 10\u00a0km, <div>",
    ]],
    ['<img alt="Caf&eacute; &amp; &quot;bar&quot;">', ['Café & "bar"']],
  ];
  for (const [html, sent] of cases) {
    const result = await translateItem(htmlFormat, html, upperCase);
    assert.deepEqual(result.sent, sent, html);
    assert.equal((await translateItem(htmlFormat, html, identity)).text, html, html);
  }
  // A changed sentence is written as it reads, escaped for its place, the characters the author
  // wrote only as references (`&amp;`, `&egrave;`) in those references again (the engine's
  // own `&` too); an attribute left alone keeps its references.
  const html = '<p>Caf&eacute; <b>cr&egrave;me</b> &amp; <i title="a&quot;b">x</i> 3 &lt; 4</p>';
  const changed = await translateItem(
    htmlFormat,
    html,
    (text) => text.replace("Café", "Tea & <tag>"),
  );
  assert.equal(
    changed.text,
    '<p>Tea &amp; &lt;tag> <b>cr&egrave;me</b> &amp; <i title="a&quot;b">x</i> 3 &lt; 4</p>',
  );
  const attribute = await translateItem(htmlFormat, '<img alt="Caf&eacute;">', () => 'Say "hi"');
  assert.equal(attribute.text, '<img alt="Say &quot;hi&quot;">');
});

Deno.test("html translates a button's label written as an input's value, no other value", async () => {
  const html = '<form><input type="submit" value="Send message"> <input name="q" value="keep me">' +
    "<input type=RESET value='Start again'><option value=\"first choice\">First</option></form>";
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent.sort(), ["First", "Send message", "Start again"]);
  assert.equal(
    result.text,
    '<form><input type="submit" value="SEND MESSAGE"> <input name="q" value="keep me">' +
      "<input type=RESET value='START AGAIN'><option value=\"first choice\">FIRST</option></form>",
  );
});

Deno.test("html keeps a link whose text is its address: nothing to translate, a model might change it", async () => {
  const html = '<p>See <a href="https://example.com/docs">https://example.com/docs</a>.</p>' +
    '<p><a href="mailto:ana@example.org">ana@example.org</a></p><li>www.example.com</li>';
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent, ["See <x1><x2/></x1>."]);
  assert.equal(
    result.text,
    '<p>SEE <a href="https://example.com/docs">https://example.com/docs</a>.</p>' +
      '<p><a href="mailto:ana@example.org">ana@example.org</a></p><li>www.example.com</li>',
  );
  // Written with references, as pages hide addresses from harvesters: kept as written too.
  const hidden = '<p>Mail <a href="mailto:x">info&#x40;example.com</a> or ' +
    "<a href=/s>https&#58;//x.org/a</a> now.</p><li>name&#64;example.com</li>";
  const kept = await translateItem(htmlFormat, hidden, upperCase);
  assert.deepEqual(kept.sent, ["Mail <x1><x2/></x1> or <x3><x4/></x3> now."]);
  assert.equal(
    kept.text,
    '<p>MAIL <a href="mailto:x">info&#x40;example.com</a> OR ' +
      "<a href=/s>https&#58;//x.org/a</a> NOW.</p><li>name&#64;example.com</li>",
  );
});

Deno.test("html reads references as a browser does: &copy= in a value as written, &#1; as a control kept whole, raw text never", async () => {
  const title = await translateItem(htmlFormat, '<p title="x&copy=y &not;z">Hello</p>', upperCase);
  assert.deepEqual(title.sent.sort(), ["Hello", "x&copy=y ¬z"]);
  // The author's `&not;` is kept for the `¬` the translation keeps.
  assert.equal(title.text, '<p title="X&amp;COPY=Y &not;Z">HELLO</p>');
  const control = await translateItem(htmlFormat, "<p>A&#1;B ok</p>", upperCase);
  assert.deepEqual(control.sent, ["A<x1/>B ok"]);
  const raw = "<xmp>Caf&eacute; &amp; <b>x</b></xmp><p>Caf&eacute;</p>";
  const kept = await translateItem(htmlFormat, raw, upperCase);
  assert.deepEqual(kept.sent, ["Café"]);
  assert.equal(kept.text, "<xmp>Caf&eacute; &amp; <b>x</b></xmp><p>CAFÉ</p>");
});
Deno.test("html translates what noscript and template hold, as markup (what a reader sees without scripts, or once the template is used)", async () => {
  const html = "<head><noscript><style>p{}</style><link rel=x></noscript></head>" +
    '<noscript>You need to enable <b>JavaScript</b>. <img src=t.gif alt="Tracker"></noscript>' +
    '<template id="row"><tr><td>Delete</td><td title="Remove it"><code>rm</code></td></tr></template>';
  const result = await translateItem(htmlFormat, html, upperCase);
  assert.deepEqual(result.sent.sort(), [
    "Delete",
    "Remove it",
    "Tracker",
    "You need to enable <x1>JavaScript</x1>.",
  ]);
  assert.equal(
    result.text,
    "<head><noscript><style>p{}</style><link rel=x></noscript></head>" +
      '<noscript>YOU NEED TO ENABLE <b>JAVASCRIPT</b>. <img src=t.gif alt="TRACKER"></noscript>' +
      '<template id="row"><tr><td>DELETE</td><td title="REMOVE IT"><code>rm</code></td></tr></template>',
  );
  // Both readers give the same tokens.
  assert.deepEqual(scannedTokens(html), parse5Tokens(html));
});

Deno.test("html: a tag with a translated title that is not closed inside its sentence keeps its translation", async () => {
  const result = await translateItem(
    htmlFormat,
    '<p>Hi <span title="x y">there <b>now</p>',
    upperCase,
  );
  assert.deepEqual(result.sent, ["x y", "Hi <x1/>there <x2/>now"]);
  assert.equal(result.text, '<p>HI <span title="X Y">THERE <b>NOW</p>');
});

Deno.test("html: an engine's </noscript> in an attribute inside noscript stays text (a browser running scripts reads noscript as raw text)", async () => {
  const html = '<noscript><img src="p.gif" alt="Tracking pixel" title=\'Pixel\'></noscript>';
  const result = await translateItem(
    htmlFormat,
    html,
    (text) => `${text} </noscript><img src=x onerror=alert(1)>`,
  );
  assert.equal(
    result.text,
    '<noscript><img src="p.gif" alt="Tracking pixel &lt;/noscript&gt;&lt;img src=x onerror=alert(1)&gt;"' +
      " title='Pixel &lt;/noscript&gt;&lt;img src=x onerror=alert(1)&gt;'></noscript>",
  );
});
