/**
 * What a changed run of `format: "html"` is written as: a browser (parse5, scripts off) must
 * read exactly the engine's text there. An engine's `<` never opens a tag, its `&` before letters
 * never forms a reference (`AT&T`, `&copy`), quotes never end an attribute; `&` before a space and
 * `>` in text need no escape and get none.
 */
import assert from "node:assert/strict";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { htmlFormat } from "../../../translation/formats/html.ts";
import { translateItem } from "../../support/format_engines.ts";

type Node = DefaultTreeAdapterMap["node"];

/** The text and the attributes a browser reads in a page, template content included. */
function rendered(html: string): string {
  const out: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeName === "#text") out.push((node as DefaultTreeAdapterMap["textNode"]).value);
    if ("attrs" in node) {
      for (const { name, value } of node.attrs) out.push(`[${node.nodeName} ${name}=${value}]`);
    }
    if ("childNodes" in node) node.childNodes.forEach(walk);
    if ("content" in node) walk(node.content as Node);
  };
  walk(parse(html, { scriptingEnabled: false }));
  return out.join("");
}

const MARK = "Sourcewords";
/** Places a run can be in: text, beside tags and references, RCDATA, attributes in each quoting. */
const PLACES = [
  `<p>Hello ${MARK} world</p>`,
  `<p>Hi <b>bold</b> ${MARK}</p>`,
  `<p>${MARK}<b>bold</b></p>`,
  `<p>Hi&nbsp;${MARK}&amp;</p>`,
  `<p>${MARK}&lt;</p>`,
  `<p>${MARK}<!--c--> more</p>`,
  `<p>x &copy ${MARK}</p>`,
  `<title>${MARK}</title>`,
  `<noscript><p>${MARK}</p></noscript>`,
  `<table><tr><td>${MARK}</td></tr></table>`,
  `<template><li>${MARK}</li></template>`,
  `<img alt="${MARK}">`,
  `<img alt='${MARK}'>`,
  `<img alt=${MARK}>`,
  `<p>Hi <a title="${MARK}">x</a> there</p>`,
];
/** Engine texts that are markup or references when written as they are. */
const ENGINE_TEXTS = [
  "AT&T",
  "&copy",
  "&copy;",
  "&amp;",
  "&#169;",
  "&#x41;",
  "&#",
  "&notit",
  "&AElig",
  "&nbsp",
  "a&",
  "& ",
  "&;",
  "&lt;",
  "a<b",
  "a<",
  "<",
  "<b>",
  "</p>",
  "</title>",
  "</noscript><img src=x>",
  "<!--x",
  "<?x",
  "a < b",
  "a > b",
  "]]>",
  "x\u00a0y",
  `"q" 's'`,
  "`b`=c",
];

Deno.test("html: a changed run renders exactly the engine's text, in every place a run can be", async () => {
  for (const place of PLACES) {
    const engine = (text: string) => (engineText: string) =>
      text.replace(MARK, engineText).replace("Hello", "Hallo").replace("Hi", "Hey");
    for (const engineText of ENGINE_TEXTS) {
      const result = await translateItem(htmlFormat, place, (sent) => engine(sent)(engineText));
      const expected = rendered(engine(place)("QqMarkQq")).replace(
        "QqMarkQq",
        engineText,
      );
      assert.equal(rendered(result.text), expected, `${place} ← ${engineText}: ${result.text}`);
    }
  }
});

Deno.test("html: a changed run escapes only what it must; the runs around it stay as written", async () => {
  const html = "<p>Tom &amp; Jerry</p><p>Caf&eacute; &lt;3</p>";
  const result = await translateItem(
    htmlFormat,
    html,
    (text) => text === "Tom & Jerry" ? "AT&T & Co <b> &copy 3>2" : text,
  );
  assert.equal(
    result.text,
    // `& Co` needs no escape; the `&` is written `&amp;` as the author wrote it.
    "<p>AT&amp;T &amp; Co &lt;b> &amp;copy 3>2</p><p>Caf&eacute; &lt;3</p>",
  );
});

Deno.test("html: an engine's & or < right before a kept span that starts with a letter is escaped (message mode)", async () => {
  // As written, `&copy@…` would read as `©@…` and `<copy@…` would open a tag.
  const html = "<p>Mail copy@example.org now</p>";
  for (
    const [engineText, expected] of [
      ["Mail &<x1/> now", "<p>Mail &amp;copy@example.org now</p>"],
      ["Mail <<x1/> now", "<p>Mail &lt;copy@example.org now</p>"],
      ["Mail & <x1/> now", "<p>Mail & copy@example.org now</p>"],
    ]
  ) {
    const result = await translateItem(htmlFormat, html, () => engineText, { mode: "message" });
    assert.deepEqual(result.sent, ["Mail <x1/> now"]);
    assert.equal(result.text, expected);
    assert.equal(rendered(result.text), engineText.replace("<x1/>", "copy@example.org"));
  }
});

Deno.test("html: a changed attribute value keeps the author's references; its own quote and & are escaped", async () => {
  const html = `<img alt="Caf&eacute; &amp; bar"><p>Hi <a title='Caf&eacute;'>x</a> there</p>` +
    `<img alt=Caf&eacute;&amp;>`;
  const result = await translateItem(
    htmlFormat,
    html,
    (text) => text.startsWith("Hi") ? "Hey <x1>x</x1> there" : `${text} "y" 'z' AT&T`,
  );
  assert.equal(
    result.text,
    `<img alt="Caf&eacute; &amp; bar &quot;y&quot; 'z' AT&amp;T">` +
      `<p>Hey <a title='Caf&eacute; "y" &#39;z&#39; AT&amp;T'>x</a> there</p>` +
      `<img alt=Caf&eacute;&amp;&#32;&#34;y&#34;&#32;&#39;z&#39;&#32;AT&amp;T>`,
  );
  assert.equal(
    rendered(result.text),
    `[img alt=Café & bar "y" 'z' AT&T]Hey [a title=Café "y" 'z' AT&T]x there` +
      `[img alt=Café& "y" 'z' AT&T]`,
  );
});
