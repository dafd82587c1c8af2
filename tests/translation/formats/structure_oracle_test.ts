/**
 * The tests' own reading of a document's structure (tests/support/document_structure.ts), which
 * the corpus tests and `check:format-files` hold the format layer to, on the shapes of real files
 * it misread: it must not fail the service for what the service does right.
 */
import assert from "node:assert/strict";
import { structureOf } from "../../support/document_structure.ts";

Deno.test("the oracle keeps an autolink's address but reads a link whose text is its target as text", () => {
  const text = "See [INSTALL.md](INSTALL.md), <https://x.org> and www.example.org.\n";
  const { skeleton, words } = structureOf({ text, format: "markdown", mode: "document" });
  assert.ok(skeleton.includes('link(url="INSTALL.md")'), skeleton.join(" "));
  assert.ok(skeleton.includes("autolink:https://x.org"), skeleton.join(" "));
  assert.ok(skeleton.includes("autolink:http://www.example.org"), skeleton.join(" "));
  assert.deepEqual(words, ["See", "INSTALL", "md", "and"]);
});

Deno.test("the oracle reads an XHTML page's doctype after its XML declaration as markup", () => {
  const page = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML' +
    ' 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n' +
    "<html><head><title>Manual</title></head><body><p>Hello there</p></body></html>\n";
  assert.deepEqual(structureOf({ text: page, format: "html", mode: "webpage" }).words, [
    "Manual",
    "Hello",
    "there",
  ]);
  // And one written after other text (a template's first line), which parse5 drops.
  const template = "{% raw %}\n<!DOCTYPE html>\n<p>Hello there</p>\n";
  assert.deepEqual(structureOf({ text: template, format: "html", mode: "webpage" }).words, [
    "raw",
    "Hello",
    "there",
  ]);
});

Deno.test("the oracle reads ruby readings and translate in any case as never translated", () => {
  const html = "<p>The word <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby> is old.</p>" +
    "<div TRANSLATE=NO>Acme Brand</div>";
  const { skeleton, words } = structureOf({ text: html, format: "html", mode: "webpage" });
  assert.deepEqual(words, ["The", "word", "is", "old"]);
  assert.ok(skeleton.includes("text:kan"), skeleton.join(" "));
  assert.ok(skeleton.includes("text:Acme Brand"), skeleton.join(" "));
});

Deno.test("the oracle reads prices as words, a link whose text is an address as kept", () => {
  // micromark's math read '5 and ' as math; the service (Pandoc's rule) sends it, as it must.
  const prices = "Tickets cost $5 and $10, or $n$ in math.\n";
  const read = structureOf({ text: prices, format: "markdown", mode: "document" });
  assert.deepEqual(read.words, ["Tickets", "cost", "and", "or", "in", "math"]);
  assert.ok(read.skeleton.includes("inlineMath:n"), read.skeleton.join(" "));
  // The service keeps a link's text that is one address (as written, whatever its target).
  const links =
    "Mail [security@x.org](mailto:security@x.org) or [http://x.org/a](http://x.org/a.html).\n";
  const kept = structureOf({ text: links, format: "markdown", mode: "document" });
  assert.deepEqual(kept.words, ["Mail", "or"]);
  // An inline never-translated element is read by the HTML rules: its title is not kept.
  const code = '- <code title="get x">y</code> now\n';
  const html = structureOf({ text: code, format: "markdown", mode: "document" });
  assert.ok(html.skeleton.includes("kept:<code title>text:y</code>"), html.skeleton.join(" "));
});
