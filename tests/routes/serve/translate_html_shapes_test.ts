/**
 * `format: "html"` over HTTP on shapes real pages are made of: what reaches the engine (the
 * stand-in upper-cases it) and that everything else comes back byte for byte.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { upperCase } from "../../support/format_engines.ts";
import { assertShapes, type Shape, translateThrough } from "../../support/format_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { postTranslate, withTranslationService } from "../../support/translation_service.ts";

/** The shapes through one request in `format: "html"`. */
function assertHtmlShapes(shapes: Shape[], mode = "webpage"): Promise<void> {
  return assertShapes(shapes, { mode, format: "html" });
}

Deno.test("html: a never-translated element's own listed attributes are translated, its content is not", async () => {
  await assertHtmlShapes([
    {
      item: '<textarea name="bio" placeholder="Tell us about you">Default text</textarea>',
      expected: '<textarea name="bio" placeholder="TELL US ABOUT YOU">Default text</textarea>',
      sent: ["Tell us about you"],
    },
    {
      item: '<iframe title="Map of the shop" src="/map">fallback</iframe>',
      expected: '<iframe title="MAP OF THE SHOP" src="/map">fallback</iframe>',
      sent: ["Map of the shop"],
    },
    {
      item: '<svg role="img" aria-label="Sales chart"><title>Sales</title></svg><p>Text.</p>',
      expected: '<svg role="img" aria-label="SALES CHART"><title>Sales</title></svg><p>TEXT.</p>',
      sent: ["Sales chart", "Text."],
    },
    {
      item: '<p>Run <code title="Lists files">ls -l</code> first.</p>',
      expected: '<p>RUN <code title="LISTS FILES">ls -l</code> FIRST.</p>',
      sent: ["Lists files", "Run <x1/> first."],
    },
    {
      // Refused: neither content nor attributes.
      item:
        '<pre translate="no" title="Raw output">a  b</pre><code class="notranslate" title="x y">z</code>',
      expected:
        '<pre translate="no" title="Raw output">a  b</pre><code class="notranslate" title="x y">z</code>',
      sent: [],
    },
  ]);
});

Deno.test("html: a script, style, textarea or iframe inside a sentence keeps the sentence whole", async () => {
  await assertHtmlShapes([
    {
      item:
        '<p>Hello <!-- note --> world, <script>var x = "a";</script> nice <style>p{}</style> day.</p>',
      expected:
        '<p>HELLO <!-- note --> WORLD, <script>var x = "a";</script> NICE <style>p{}</style> DAY.</p>',
      sent: ["Hello <x1/> world, <x2/> nice <x3/> day."],
    },
    {
      item: "<p>Write <textarea>x</textarea> here please.</p>",
      expected: "<p>WRITE <textarea>x</textarea> HERE PLEASE.</p>",
      sent: ["Write <x1/> here please."],
    },
    {
      // Its title, a tooltip, is translated on its own and written into the placeholder.
      item: '<p>See the map <iframe src="/map" title="Shop map"></iframe> below.</p>',
      expected: '<p>SEE THE MAP <iframe src="/map" title="SHOP MAP"></iframe> BELOW.</p>',
      sent: ["Shop map", "See the map <x1/> below."],
    },
    {
      // Between blocks they still separate sentences and are not sent.
      item: '<p>One.</p>\n<script src="a.js"></script>\n<style>p{}</style><p>Two.</p>',
      expected: '<p>ONE.</p>\n<script src="a.js"></script>\n<style>p{}</style><p>TWO.</p>',
      sent: ["One.", "Two."],
    },
  ]);
});

Deno.test("html: real-world shapes keep their structure byte for byte", async () => {
  await assertHtmlShapes([
    {
      item: "<template><p>Hello there.</p></template><p>After.</p>",
      expected: "<template><p>HELLO THERE.</p></template><p>AFTER.</p>",
      sent: ["Hello there.", "After."],
    },
    {
      item: "<p>First line<br>second<wbr>word here.</p>",
      expected: "<p>FIRST LINE<br>SECOND<wbr>WORD HERE.</p>",
      sent: ["First line<x1/>secondword here."],
    },
    {
      item: "<select><option value=a>First choice</option><option>Second</select>",
      expected: "<select><option value=a>FIRST CHOICE</option><option>SECOND</select>",
      sent: ["First choice", "Second"],
    },
    {
      item: '<input type=submit value=Send><input type="text" value="Keep me">' +
        '<img srcset="a.png 1x, b.png 2x" alt="A red car">',
      expected: '<input type=submit value=SEND><input type="text" value="Keep me">' +
        '<img srcset="a.png 1x, b.png 2x" alt="A RED CAR">',
      sent: ["Send", "A red car"],
    },
    {
      item:
        "<!--[if IE]><p>Old browser.</p><![endif]--><noscript><p>Enable scripts.</p></noscript>",
      expected:
        "<!--[if IE]><p>Old browser.</p><![endif]--><noscript><p>ENABLE SCRIPTS.</p></noscript>",
      sent: ["Enable scripts."],
    },
    {
      item: "<p>One <b><i><u><span><em><strong>deep</strong></em></span></u></i></b> end.</p>",
      expected: "<p>ONE <b><i><u><span><em><strong>DEEP</strong></em></span></u></i></b> END.</p>",
      sent: ["One <x1><x2><x3><x4><x5><x6>deep</x6></x5></x4></x3></x2></x1> end."],
    },
    {
      item: "<DIV><P>Upper tags.</P><B>Bold</B> text</DIV><div/>After a self-closed div.",
      expected: "<DIV><P>UPPER TAGS.</P><B>BOLD</B> TEXT</DIV><div/>AFTER A SELF-CLOSED DIV.",
      sent: ["Upper tags.", "<x1>Bold</x1> text", "After a self-closed div."],
    },
    {
      item:
        '\uFEFF<!DOCTYPE html>\r\n<html lang="en" dir="ltr">\r\n<head><title>Title words</title>' +
        '<meta name="description" content="A page"></head>\r\n<body>Loose text.</body></html>\r\n',
      expected:
        '\uFEFF<!DOCTYPE html>\r\n<html lang="en" dir="ltr">\r\n<head><title>TITLE WORDS</title>' +
        '<meta name="description" content="A PAGE"></head>\r\n<body>LOOSE TEXT.</body></html>\r\n',
      // A search result shows the description (translate_html_shown_attributes_test.ts).
      sent: ["Title words", "A page", "Loose text."],
    },
  ]);
});

Deno.test("html: a placeholder the engine invents never reaches the page, even in the fallback", async () => {
  // A model that adds a token no source had, whatever it is asked (retries included).
  const runner = startOllamaStandIn({ translate: (text) => `${upperCase(text)} <x9/>` });
  try {
    await withTranslationService(async (service) => {
      const body = await expectBody(
        await postTranslate(service, {
          source: "en",
          target: "de",
          format: "html",
          mode: "webpage",
          options: { engine: "engine-one" },
          texts: ['<p>See <b>bold</b> now.</p><img alt="A cat">', "<title>Plain</title>"],
        }),
        200,
        TranslateResponseSchema,
      );
      assert.deepEqual(body.results.map((result) => result.text), [
        '<p>SEE <b>BOLD</b> NOW.</p><img alt="A CAT">',
        "<title>PLAIN</title>",
      ]);
    }, {
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    });
  } finally {
    await runner.stop();
  }
});

Deno.test("html: ruby readings and addresses written with references are kept, and an engine's & and < are written as text", async () => {
  await assertHtmlShapes([
    {
      item: "<p>The word <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rt>ji</rt></ruby> is old.</p>",
      expected:
        "<p>THE WORD <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rt>ji</rt></ruby> IS OLD.</p>",
      sent: ["The word <x1>漢<x2/>字<x3/></x1> is old."],
    },
    {
      item: '<p>Write to <a href="mailto:x@example.com">x&#64;example.com</a> today.</p>',
      expected: '<p>WRITE TO <a href="mailto:x@example.com">x&#64;example.com</a> TODAY.</p>',
      sent: ["Write to <x1><x2/></x1> today."],
    },
  ]);
  // As written, the engine's `&T` and `&copy` would be references and `<b` a tag; the `&` the
  // author wrote `&amp;` keeps that spelling, in text and in an attribute.
  const { texts, sent } = await translateThrough(
    ["<p>Fish &amp; chips &lt;3</p>", '<img alt="Fish &amp; chips">'],
    { mode: "webpage", format: "html" },
    (text) => text.replace("Fish", "AT&T &copy <b>"),
  );
  assert.deepEqual(sent.toSorted(), ["Fish & chips", "Fish & chips <3"]);
  assert.deepEqual(texts, [
    "<p>AT&amp;T &amp;copy &lt;b> &amp; chips &lt;3</p>",
    '<img alt="AT&amp;T &amp;copy &lt;b&gt; &amp; chips">',
  ]);
});

Deno.test("html: references keep the author's spelling in a changed run, in a Markdown file too", async () => {
  // A run the engine changed came back with '&copy;' as '©' and '&#64;' as '@': same rendering,
  // other bytes in every translated file.
  const html = "<p>Copyright &copy; 2024, mail me&#64;example.org &amp; <b>Caf&eacute;</b>.</p>";
  const page = await translateThrough(
    [html],
    { format: "html", mode: "webpage" },
    (text) => "Neu: " + text,
  );
  assert.equal(
    page.texts[0],
    "<p>Neu: Copyright &copy; 2024, mail me&#64;example.org &amp; <b>Caf&eacute;</b>.</p>",
  );
  const markdown = `<div>\n${html}\n</div>\n`;
  const block = await translateThrough([markdown], { format: "markdown", mode: "document" }, (
    text,
  ) => "Neu: " + text);
  assert.equal(block.texts[0], markdown.replace("<p>", "<p>Neu: "));
});
