/**
 * ICU MessageFormat's `plural`, `select` and `selectordinal` over HTTP: the skeleton (the
 * argument's name and type, the selectors, `offset:`, the braces and `#`) reaches the engine as
 * placeholders and comes back byte for byte, the text of each branch is translated. An engine
 * that upper-cases or translates `plural` or `one` would break the message.
 */
import assert from "node:assert/strict";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";

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
    // Message mode keeps hashtags whole, but a branch's `#` is the number: `#st` is no hashtag.
    expected: "FINISHED {place, selectordinal, one {#ST} two {#ND} other {#TH}} TODAY",
  },
  {
    // ICU's quoting: `'{'`, `'}'` and `'#'` are literal characters, `''` an apostrophe (sent as
    // one `'`, written back doubled as the message writes its apostrophes). A quoted brace no
    // longer leaves the message unbalanced.
    name: "quoted braces and # inside branches",
    item: "{n, plural, one {Use '{'name'}' once} other {Use '#' and # times, it''s fine}}",
    sent: "<x1/>Use <x2/>name<x3/> once<x4/>Use <x5/> and <x6/> times, it's fine<x7/>",
    expected: "{n, plural, one {USE '{'NAME'}' ONCE} other {USE '#' AND # TIMES, IT''S FINE}}",
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
    const { texts, sent } = await translateUpperCased(CASES.map((c) => c.item), { mode });
    assert.deepEqual(texts, CASES.map((c) => c.expected));
    assert.deepEqual(sent.toSorted(), CASES.map((c) => c.sent).toSorted());
  });
}

for (const mode of ["paragraph", "message"]) {
  Deno.test(`format html in ${mode} mode keeps an ICU message's skeleton across the markup in its branches`, async () => {
    // Each text run between the tags was read alone: no run held a whole message, so the
    // skeleton went to the engine as words (`{N, PLURAL, ONE {`).
    const item = "<p>{n, plural, one {<b>#</b> file} other {<b>#</b> files}}</p>";
    const { texts, sent } = await translateUpperCased([item], { mode, format: "html" });
    assert.deepEqual(sent, ["<x1/><x2><x3/></x2> file<x4/><x5><x6/></x5> files<x7/>"]);
    assert.deepEqual(texts, [item.replace(" file}", " FILE}").replace(" files}", " FILES}")]);
  });
}

Deno.test("format html keeps an ICU message's skeleton in an element, its branches translated", async () => {
  const item = "<p>Saved {count, plural, one {# file} other {# files}}</p>";
  const { texts } = await translateUpperCased([item], { mode: "paragraph", format: "html" });
  assert.deepEqual(texts, [
    item.replace("Saved", "SAVED").replace(" file}", " FILE}").replace(" files}", " FILES}"),
  ]);
});

for (const mode of ["paragraph", "message", "document"]) {
  Deno.test(`format text in ${mode} mode sends an ICU message's '' as ', an engine's ' written back as ICU reads it`, async () => {
    // `''` reached the engine as two apostrophes; an engine's lone `'` before `{` or `#` started
    // an ICU quote, and the variable or the number after it showed as written.
    const doubled = "{n, plural, one {It''s # file} other {It''s # files}}";
    const single = "{n, plural, one {# file of {owner}} other {# files of {owner}}}";
    const quoted = "{n, plural, other {Type '{'x'}' now}}";
    const { texts, sent } = await translateThrough(
      [doubled, single, quoted],
      { mode },
      (text) =>
        text.replaceAll(" of ", " d'").replaceAll("It's", "C'est").replaceAll(" fil", " l'fil")
          .replace("<x3/> now", "<x3/>'s now"),
    );
    assert.deepEqual(
      sent.toSorted(),
      [
        "<x1/>It's <x2/> file<x3/>It's <x4/> files<x5/>",
        "<x1/> file of <x2/> files of <x3/>",
        "<x1/>Type <x2/>x<x3/> now<x4/>",
      ].toSorted(),
    );
    assert.deepEqual(texts, [
      // The message doubles its apostrophes: all of a changed run's are doubled.
      "{n, plural, one {C''est # l''file} other {C''est # l''files}}",
      // It writes them single: only one before a brace or `#` is doubled, as ICU needs.
      "{n, plural, one {# l'file d''{owner}} other {# l'files d''{owner}}}",
      // Right after a quote's closing `'`, a lone one would have read on quoted: `'}''s now}}`.
      "{n, plural, other {Type '{'x'}'''s now}}",
    ]);
  });
}

for (const mode of ["paragraph", "message"]) {
  Deno.test(`format text in ${mode} mode keeps ICU's quoted braces in a message with no plural`, async () => {
    // `'{'` and `'}'` are ICU's quoted braces (Python and .NET write `{{`): they were sent as
    // written, and an engine that dropped the apostrophes made `{touch}` an argument.
    const item = "Type '{'touch'}' and it''s done";
    const { texts, sent } = await translateUpperCased([item], { mode });
    assert.deepEqual(sent, ["Type <x1/>touch<x2/> and it's done"]);
    assert.deepEqual(texts, ["TYPE '{'TOUCH'}' AND IT''S DONE"]);
  });
}

Deno.test("format text writes an engine's apostrophe before a rich-text tag and its bare braces quoted as ICU reads them", async () => {
  // FormatJS reads a lone `'` before `<` as a quote (`l'<b>` showed `<b>` as written, to the
  // next apostrophe), and an engine's bare `{` or `}` in a branch opened or closed an argument.
  const item = "{n, plural, one {Read <b>the file</b>} other {Read <b>the files</b> {now}}}";
  const { texts, sent } = await translateThrough(
    [item],
    { mode: "message" },
    (text) => text.replaceAll("Read <x", "Lis l'<x").replace("files", "fichiers {bis}"),
  );
  assert.deepEqual(sent, [
    "<x1/>Read <x2>the file</x2><x3/>Read <x4>the files</x4> <x5/>",
  ]);
  assert.deepEqual(texts, [
    "{n, plural, one {Lis l''<b>the file</b>} other {Lis l''<b>the fichiers '{'bis'}'</b> {now}}}",
  ]);
});

Deno.test("format text in message mode keeps an unclosed or self-closing rich-text tag as one placeholder", async () => {
  // `Click <link>here` never closes: one atom, neither dropped nor doubled by the restore.
  const items = [
    "Click <link>here",
    "Line one<br/>line two",
    "{n, plural, one {<br/>#} other {# <i>x}}",
  ];
  const { texts, sent } = await translateUpperCased(items, { mode: "message" });
  assert.deepEqual(sent, ["Click <x1/>here", "Line one<x1/>line two", "<x1/> <x2/>x<x3/>"]);
  assert.deepEqual(texts, [
    "CLICK <link>HERE",
    "LINE ONE<br/>LINE TWO",
    "{n, plural, one {<br/>#} other {# <i>X}}",
  ]);
});
