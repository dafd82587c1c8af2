/**
 * ICU MessageFormat's `plural`, `select` and `selectordinal` over HTTP: the skeleton (the
 * argument's name and type, the selectors, `offset:`, the braces and `#`) reaches the engine as
 * placeholders and comes back byte for byte, the text of each branch is translated. An engine
 * that upper-cases or translates `plural` or `one` would break the message.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

/** Named cases: a message, what the engine is given, what comes back (upper-cased). */
const CASES = [
  {
    name: "plural with #, an exact selector and offset",
    item: "{count, plural, offset:1 =0 {No files} one {# file} other {# files and {name}}}",
    sent: "<x1/>No files<x2/> file<x3/> files and <x4/>",
    expected: "{count, plural, offset:1 =0 {NO FILES} one {# FILE} other {# FILES AND {name}}}",
  },
  {
    name: "selectordinal in a sentence",
    item: "Finished {place, selectordinal, one {#st} two {#nd} other {#th}} today",
    sent: "Finished <x1/>st<x2/>nd<x3/>th<x4/> today",
    expected: "FINISHED {place, selectordinal, one {#ST} two {#ND} other {#TH}} TODAY",
    // Message mode keeps hashtags whole: `#st` comes back as written, the skeleton too.
    inMessage: {
      sent: "Finished <x1/> today",
      expected: "FINISHED {place, selectordinal, one {#st} two {#nd} other {#th}} TODAY",
    },
  },
  {
    name: "a select nested in a plural's branch",
    item: "{n, plural, one {{g, select, female {She has} other {They have}} one cat} " +
      "other {Cats: #}}",
    sent: "<x1/>She has<x2/>They have<x3/> one cat<x4/>Cats: <x5/>",
    expected: "{n, plural, one {{g, select, female {SHE HAS} other {THEY HAVE}} ONE CAT} " +
      "other {CATS: #}}",
  },
  {
    // Never closed: not ICU, sent as written as before (its braces open no argument).
    name: "an ICU-looking text with unbalanced braces",
    item: "You have {count, plural, one {item} other {items}",
    sent: "You have {count, plural, one {item} other {items}",
    expected: "YOU HAVE {COUNT, PLURAL, ONE {ITEM} OTHER {ITEMS}",
  },
  {
    // A selector must be one word or `=n`: two words are no ICU, sent as written.
    name: "a text whose selector is not one",
    item: "{count, plural, one more {item} other {items}}",
    sent: "{count, plural, one more {item} other {items}}",
    expected: "{COUNT, PLURAL, ONE MORE {ITEM} OTHER {ITEMS}}",
  },
];

for (const mode of ["paragraph", "message"]) {
  Deno.test(`format text in ${mode} mode keeps an ICU message's skeleton, its branches translated`, async () => {
    const cases = CASES.map((c) =>
      mode === "message" && "inMessage" in c ? { ...c, ...c.inMessage } : c
    );
    const { texts, sent } = await translateUpperCased(cases.map((c) => c.item), { mode });
    assert.deepEqual(texts, cases.map((c) => c.expected));
    assert.deepEqual(sent.toSorted(), cases.map((c) => c.sent).toSorted());
  });
}

Deno.test("format html sends an ICU message whose branches hold markup as written", async () => {
  const item = "<p>{n, plural, one {<b>#</b> file} other {<b>#</b> files}}</p>";
  const { texts } = await translateUpperCased([item], { mode: "paragraph", format: "html" });
  assert.deepEqual(texts, [
    item.replace("{n, plural, one {", "{N, PLURAL, ONE {")
      .replace("</b> file} other {", "</b> FILE} OTHER {").replace(" files}}", " FILES}}"),
  ]);
});

Deno.test("format html keeps an ICU message's skeleton in an element, its branches translated", async () => {
  const item = "<p>Saved {count, plural, one {# file} other {# files}}</p>";
  const { texts } = await translateUpperCased([item], { mode: "paragraph", format: "html" });
  assert.deepEqual(texts, [
    item.replace("Saved", "SAVED").replace(" file}", " FILE}").replace(" files}", " FILES}"),
  ]);
});
