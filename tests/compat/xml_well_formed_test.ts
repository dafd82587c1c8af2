import assert from "node:assert/strict";
import { xmlProblem } from "../../compat/xml_well_formed.ts";

/** Texts and what is said about them: lines and columns of the text as sent. */
const CASES: [string, string | undefined][] = [
  ["Press <b>Continue</b> to advance.", undefined],
  ['Press <x id="1"/> to <g id="2">save</g>.', undefined],
  ["<a>x</a><b>y</b> text between and after", undefined],
  ['<?xml version="1.0"?>\n<doc><par>A &amp; B &#x41;</par></doc>', undefined],
  ["<!-- kept --> <![CDATA[ <raw> & ]]>", undefined],
  ["x <a>y", "<a> at line 1, column 3 is never closed"],
  ["line one\n<a>\nz", "<a> at line 2, column 1 is never closed"],
  ["a</b>c", "</b> at line 1, column 2 closes nothing"],
  [
    "<a><b></a>",
    "Expected closing tag 'b' (opened at line 1, column 4) instead of closing tag 'a' at line 1, column 7",
  ],
  ["Tom & Jerry", "char '&' is not expected at line 1, column 5"],
  // Entity names are XML names, of any length: the checker's own rule is 20 ASCII characters.
  ["Use &product-name; &rel.date; &Straße; &a_really_long_entity_name;", undefined],
  ["<a>&product-name;</a> &-x; y", "char '&' is not expected at line 1, column 23"],
  ["<x id=1/>", "Attribute 'id' is without value at line 1, column 4"],
  ['<a b="1" b="2">x</a>', "Attribute 'b' is repeated at line 1, column 10"],
  // Sections left open: the checker blamed its own wrapping element, at column -10.
  ["<a>x <![CDATA[ y</a>", "<![CDATA[ at line 1, column 6 is never closed"],
  ["x <![CDATA[ y", "<![CDATA[ at line 1, column 3 is never closed"],
  ["x <!-- note", "<!-- at line 1, column 3 is never closed"],
  ["a\n<b><?pi x</b>", "<? at line 2, column 4 is never closed"],
  ["<!DOCTYPE d [", "<!DOCTYPE at line 1, column 1 is never closed"],
  // A tag the text ends inside: the checker read the name on into its own closing tag.
  ["<a", "'<a' at line 1, column 1 has no closing '>'"],
  ["x </", "'</' at line 1, column 3 has no closing '>'"],
  ["<a>x</a", "'</a' at line 1, column 5 has no closing '>'"],
  ["<!DOCTYPE d [ <!ENTITY e 'f'>", "markup opened in the text is never closed"],
  // XML 1.0's well-formedness rules the checker lets through: `]]>` outside a CDATA section,
  // `<` in an attribute value (a strict parser, DeepL's v2, refuses both).
  ["a ]]> b", "']]>' at line 1, column 3 is only allowed as the end of a CDATA section"],
  ["<a>x\n y]]></a>", "']]>' at line 2, column 3 is only allowed as the end of a CDATA section"],
  ['<a t="x<y">z</a>', "'<' in the value of attribute 't' at line 1, column 4"],
  ["<p>\n<a t='1' u='<'/></p>", "'<' in the value of attribute 'u' at line 2, column 10"],
  // What these rules allow: `]]>` and `<` in comments and CDATA, `>` and `]]>` in a value.
  ['<!-- ]]> < --><![CDATA[ a < b ]]><a t="x > ]]> y">z</a>', undefined],
];

for (const [text, problem] of CASES) {
  Deno.test(`xmlProblem(${JSON.stringify(text)}) → ${problem ?? "well-formed"}`, () => {
    assert.equal(xmlProblem(text), problem);
  });
}

Deno.test("xmlProblem reads 50,000 characters of nested elements without trouble", () => {
  const nested = "<a>".repeat(5_000) + "x" + "</a>".repeat(5_000);
  assert.equal(xmlProblem(nested), undefined);
  assert.equal(xmlProblem(nested.slice(0, -4)), "<a> at line 1, column 1 is never closed");
});
