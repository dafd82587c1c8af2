import assert from "node:assert/strict";
import {
  atom,
  buildSegment,
  close,
  open,
  protectSpans,
} from "../../../translation/formats/placeholders.ts";

Deno.test("buildSegment numbers paired tags and atoms in source order", () => {
  const segment = buildSegment([
    "  Read ",
    open('<a href="/guide">', "a1"),
    "the ",
    open("<b>", "b1"),
    "guide",
    close("</b>", "b1"),
    close("</a>", "a1"),
    atom("<br>"),
    "now. ",
  ]);
  assert.equal(segment.text, "Read <x1>the <x2>guide</x2></x1><x3/>now.");
  assert.equal(segment.translatable, true);
  assert.equal(
    segment.restore("Lisez <x1>le <x2>guide</x2></x1><x3/>maintenant."),
    '  Lisez <a href="/guide">le <b>guide</b></a><br>maintenant. ',
  );
});

Deno.test("a close takes the number of its own open when tags of one name nest", () => {
  // Markdown's inline HTML and subtitle tags are paired by tag name, so `<b>` inside `<b>` has
  // opens of the same name: the outer close must not take the inner one's number.
  const segment = buildSegment([
    open("<b>", "b"),
    "bold ",
    open("<b>", "b"),
    "bolder",
    close("</b>", "b"),
    " text",
    close("</b>", "b"),
  ]);
  assert.equal(segment.text, "<x1>bold <x2>bolder</x2> text</x1>");
  assert.equal(
    segment.restore("<x1>gras <x2>plus gras</x2> texte</x1>"),
    "<b>gras <b>plus gras</b> texte</b>",
  );
});

Deno.test("restore refuses dropped, duplicated, invented and reordered placeholders", () => {
  const segment = buildSegment([
    "A ",
    open("<b>", "b"),
    "B",
    close("</b>", "b"),
    " ",
    atom("&amp;"),
    " C",
  ]);
  assert.equal(segment.text, "A <x1>B</x1> <x2/> C");
  const broken = [
    ["dropped", "a b <x2/> c"],
    ["duplicated", "a <x1>b</x1> <x2/> <x2/> c"],
    ["invented", "a <x1>b</x1> <x2/> <x3/> c"],
    ["reordered", "<x2/> a <x1>b</x1> c"],
    ["closed before opened", "a </x1>b<x1> <x2/> c"],
  ];
  for (const [why, answer] of broken) {
    assert.equal(segment.restore(answer), undefined, why);
  }
});

Deno.test("restore accepts the loose spellings models produce", () => {
  const segment = buildSegment(["A ", open("<i>", "i"), "B", close("</i>", "i"), atom("<br/>")]);
  assert.equal(segment.restore("a < X1 >b</ x1><x2 />"), "a <i>b</i><br/>");
});

Deno.test("unpaired and crossed tags become atoms", () => {
  const segment = buildSegment([
    open("<b>", "b"),
    "bold ",
    open("<i>", "i"),
    "both",
    close("</b>", "b"),
    " italic",
  ]);
  // <b> pairs with </b>; the <i> left open inside it stays a single atom.
  assert.equal(segment.text, "<x1>bold <x2/>both</x1> italic");
});

Deno.test("text that looks like a placeholder is protected, never forged", () => {
  const segment = buildSegment(["Type <x1> then </x1> here"]);
  assert.equal(segment.text, "Type <x1/> then <x2/> here");
  assert.equal(segment.restore("Tapez <x1/> puis <x2/> ici"), "Tapez <x1> puis </x1> ici");
});

Deno.test("neighbouring atoms merge into one placeholder", () => {
  const segment = buildSegment(["a", atom("&nbsp;"), atom("<br>"), "b"]);
  assert.equal(segment.text, "a<x1/>b");
  assert.equal(segment.restore("c<x1/>d"), "c&nbsp;<br>d");
});

Deno.test("fromRuns keeps every piece of markup in place around translated runs", () => {
  const segment = buildSegment([
    "Hello ",
    open("<b>", "b"),
    "big",
    close("</b>", "b"),
    " world ",
    atom("<br>"),
    " 42 ",
  ]);
  assert.deepEqual(segment.runs, ["Hello", "big", "world"]);
  assert.equal(segment.fromRuns(["Salut", "grand", "monde"]), "Salut <b>grand</b> monde <br> 42 ");
});

Deno.test("a segment without letters outside markup is not translatable", () => {
  const segment = buildSegment([" 12 ", open("<b>", "b"), "—", close("</b>", "b")]);
  assert.equal(segment.translatable, false);
  assert.equal(segment.source, " 12 <b>—</b>");
});

Deno.test("protectSpans turns found spans into atoms, first one wins on overlap", () => {
  const parts = protectSpans("see x.org now", () => [[4, 9], [6, 8]]);
  assert.deepEqual(parts, ["see ", atom("x.org"), " now"]);
});

Deno.test("a render hook re-renders markup on the way back, inside merged atoms too", () => {
  const image = atom('<img alt="cat">');
  const segment = buildSegment(["A ", image, atom("<br>"), " b"]);
  const rendered = segment.restore(
    "Un <x1/> b",
    (markup) => markup === image ? '<img alt="chat">' : markup.markup,
  );
  assert.equal(rendered, 'Un <img alt="chat"><br> b');
});

Deno.test("a run of neighbouring atoms is one placeholder; a render hook sees each original", () => {
  const escapes = Array.from({ length: 5 }, (_, i) => atom(`\\${"*_`#!"[i]}`));
  const segment = buildSegment(["Stars ", ...escapes, "", atom("<br>"), " here"]);
  assert.equal(segment.text, "Stars <x1/> here");
  const seen: string[] = [];
  const rendered = segment.restore("Sterne <x1/> hier", (markup) => {
    seen.push(markup.markup);
    return markup.markup;
  });
  assert.equal(rendered, "Sterne \\*\\_\\`\\#\\!<br> hier");
  assert.deepEqual(seen, ["\\*", "\\_", "\\`", "\\#", "\\!", "<br>"]);
});

Deno.test("a segment that is one lone open or close tag keeps it as an atom", () => {
  for (const lone of [open("<b>", "b1"), close("</b>", "b1")]) {
    const segment = buildSegment([lone]);
    assert.equal(segment.text, "<x1/>");
    assert.equal(segment.restore("<x1/>"), lone.markup);
  }
});
