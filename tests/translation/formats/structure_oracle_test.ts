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
