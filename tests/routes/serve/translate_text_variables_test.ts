/**
 * Interpolation variables of UI strings over HTTP (`{name}`, `%1$s`, `{{user}}`, `${app}`,
 * `%(count)d`, `:name`): an engine must never translate them (German capitalises `{name}` into
 * `{Name}`, and the app then shows the raw variable), so they reach it as placeholders and come
 * back byte for byte, in text and in XML (Android's strings.xml).
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

/** Named cases: a string, what the engine is given, what comes back (upper-cased). */
const CASES = [
  {
    name: "ICU and .NET arguments",
    item: "Hello {name}, you have {0} new {count, number} items",
    sent: "Hello <x1/>, you have <x2/> new <x3/> items",
    expected: "HELLO {name}, YOU HAVE {0} NEW {count, number} ITEMS",
  },
  {
    name: "printf conversions, positional and Objective-C's",
    item: "Saved %s files to %1$d folders (%.2f%% done) by %@",
    sent: "Saved <x1/> files to <x2/> folders (<x3/>%% done) by <x4/>",
    expected: "SAVED %s FILES TO %1$d FOLDERS (%.2f%% DONE) BY %@",
  },
  {
    name: "template variables: Mustache, JavaScript, Ruby, Python, Laravel",
    item: "Welcome {{ user.name }} to ${app}, %{count} left, %(total)d in all, :name joined",
    sent: "Welcome <x1/> to <x2/>, <x3/> left, <x4/> in all, <x5/> joined",
    expected: "WELCOME {{ user.name }} TO ${app}, %{count} LEFT, %(total)d IN ALL, :name JOINED",
  },
  {
    // The ICU skeleton is kept, the branch texts translated: `{item}` is a branch's text.
    name: "ICU plural and select, whose branches are text",
    item: "You have {count, plural, one {item} other {{count} items}}; " +
      "{gender, select, male {He} other {They}} said",
    sent: "You have <x1/>item<x2/> items<x3/>; <x4/>He<x5/>They<x6/> said",
    expected: "YOU HAVE {count, plural, one {ITEM} other {{count} ITEMS}}; " +
      "{gender, select, male {HE} other {THEY}} SAID",
  },
  {
    // i18next's nesting: the key is looked up, never a word to translate.
    name: "i18next's $t() nesting",
    item: "See $t(common.footer) and $t(nav.home, { count: 2 }) below",
    sent: "See <x1/> and <x2/> below",
    expected: "SEE $t(common.footer) AND $t(nav.home, { count: 2 }) BELOW",
  },
  {
    name: "prose that only looks like a variable",
    item: "50% off, 100% sure: a 5%discount {not closed and % s, time: 10:30",
    sent: "50% off, 100% sure: a 5%discount {not closed and % s, time: 10:30",
    expected: "50% OFF, 100% SURE: A 5%DISCOUNT {NOT CLOSED AND % S, TIME: 10:30",
  },
];

for (const mode of ["paragraph", "message"]) {
  Deno.test(`format text in ${mode} mode keeps interpolation variables as written`, async () => {
    const { texts, sent } = await translateUpperCased(CASES.map((c) => c.item), { mode });
    assert.deepEqual(texts, CASES.map((c) => c.expected));
    assert.deepEqual(sent.toSorted(), CASES.map((c) => c.sent).toSorted());
  });
}

Deno.test("format xml keeps an Android string's printf arguments as written, its \\' read as '", async () => {
  const item = '<resources><string name="w">Don\\\'t forget, %1$s: %2$d new</string></resources>';
  const { texts, sent } = await translateUpperCased([item], { mode: "paragraph", format: "xml" });
  assert.deepEqual(sent, ["Don't forget, <x1/>: <x2/> new"]);
  assert.equal(texts[0], item.replace("Don\\'t forget", "DON\\'T FORGET").replace(" new", " NEW"));
});

Deno.test("format text in message mode keeps a UI string's rich-text tags as written, paired", async () => {
  // next-intl's and FormatJS's `<link>…</link>`, react-i18next's `<1>…</1>`: the app renders
  // them by name, so an engine's `<LINK>` or `<enlace>` showed the raw tag. Prose `a < b` is text.
  // A pair goes as one placeholder pair around its words, as an HTML inline element does (two
  // atoms could not move with the words they wrap); a lone or unclosed tag is an atom.
  const items = [
    "Please <link>sign in</link> to continue.<br/>",
    "<0>Welcome</0> back, <1>{{name}}</1>!",
    "{count, plural, one {<strong>#</strong> item} other {<strong>#</strong> items}} in cart",
    "Is 3 < 5 and 7 > 2?",
    "Tap <b>here to go",
  ];
  const { texts, sent } = await translateUpperCased(items, { mode: "message" });
  assert.deepEqual(
    sent.toSorted(),
    [
      "Please <x1>sign in</x1> to continue.<x2/>",
      "<x1>Welcome</x1> back, <x2><x3/></x2>!",
      "<x1/><x2><x3/></x2> item<x4/><x5><x6/></x5> items<x7/> in cart",
      "Is 3 < 5 and 7 > 2?",
      "Tap <x1/>here to go",
    ].toSorted(),
  );
  assert.deepEqual(texts, [
    "PLEASE <link>SIGN IN</link> TO CONTINUE.<br/>",
    "<0>WELCOME</0> BACK, <1>{{name}}</1>!",
    "{count, plural, one {<strong>#</strong> ITEM} other {<strong>#</strong> ITEMS}} IN CART",
    "IS 3 < 5 AND 7 > 2?",
    "TAP <b>HERE TO GO",
  ]);
});
