/**
 * Real-world SRT and WebVTT files in `subtitle` mode over HTTP: every index, timing, header and
 * note comes back byte for byte, and every cue's text reaches the engine.
 */
import assert from "node:assert/strict";
import { upperCase } from "../../support/format_engines.ts";
import { translateUpperCased } from "../../support/format_requests.ts";

async function translateFile(file: string) {
  const { texts, sent } = await translateUpperCased([file], { mode: "subtitle" });
  return { text: texts[0], sent };
}

Deno.test("subtitle mode reads an SRT file written without indices as cues, timings kept", async () => {
  const srt = "00:00:01,000 --> 00:00:02,000\nHello there\n\n" +
    "00:00:03,000 --> 00:00:04,000\nGood bye\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Hello there", "Good bye"]);
  assert.equal(text, srt.replace("Hello there", "HELLO THERE").replace("Good bye", "GOOD BYE"));
});

Deno.test("subtitle mode starts a cue at each SRT timing line, with no blank line before it", async () => {
  const srt = "1\r\n00:00:01,000 --> 00:00:02,000\r\nHello there\r\n" +
    "2\r\n00:00:03,000 --> 00:00:04,000\r\nGood bye\r\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Hello there", "Good bye"]);
  assert.equal(text, srt.replace("Hello there", "HELLO THERE").replace("Good bye", "GOOD BYE"));
});

Deno.test("subtitle mode translates the cues of a WebVTT file whose header runs into the first cue", async () => {
  const vtt = "WEBVTT\n00:01.000 --> 00:02.000\nHello there\n\n00:03.000 --> 00:04.000\nGood bye\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["Hello there", "Good bye"]);
  assert.equal(text, vtt.replace("Hello there", "HELLO THERE").replace("Good bye", "GOOD BYE"));
});

Deno.test("subtitle mode keeps a WebVTT timing line after a cue identifier holding -->", async () => {
  const vtt = "WEBVTT\n\nscene 1 --> 2\n00:01.000 --> 00:02.000 align:start\nHello there\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["Hello there"]);
  assert.equal(text, vtt.replace("Hello there", "HELLO THERE"));
});

Deno.test("subtitle mode translates SRT cue text that runs on after a blank line", async () => {
  const srt = "1\n00:00:01,000 --> 00:00:02,000\nHello there\n\nmy old friend\n\n" +
    "2\n00:00:03,000 --> 00:00:04,000\nGood bye\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Hello there", "my old friend", "Good bye"]);
  assert.equal(text, upperCase(srt));
});

Deno.test("subtitle mode gives the engine a WebVTT cue's character references as characters", async () => {
  const vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\nTom &amp; Jerry &lt;3 caf&eacute;\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["Tom & Jerry <x1/>3 café"]);
  assert.equal(
    text,
    vtt.replace("Tom &amp; Jerry &lt;3 caf&eacute;", "TOM &amp; JERRY &lt;3 CAFÉ"),
  );
});

Deno.test("subtitle mode reads an SRT file whose timings write milliseconds after a colon", async () => {
  const srt = "1\n00:00:01:000 --> 00:00:02:000\nHello there\n\n" +
    "2\n00:00:03:000 --> 00:00:04:000\nGood bye\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Hello there", "Good bye"]);
  assert.equal(text, upperCase(srt));
});

Deno.test("subtitle mode keeps the index of a second SRT file glued by its byte-order mark to the last cue of the first", async () => {
  const srt =
    "1\n00:00:01,000 --> 00:00:02,000\nHello\uFEFF1\n00:00:03,000 --> 00:00:04,000\nBye\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Hello", "Bye"]);
  assert.equal(text, srt.replace("Hello", "HELLO").replace("Bye", "BYE"));
});

Deno.test("subtitle mode keeps the header of a second WebVTT file that starts right after a cue", async () => {
  const vtt =
    "WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n\uFEFFWEBVTT\n\n00:03.000 --> 00:04.000\nBye\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["Hello", "Bye"]);
  assert.equal(text, vtt.replace("Hello", "HELLO").replace("Bye", "BYE"));
});

Deno.test("subtitle mode translates SRT text in angle brackets that players show: no known tag, never closed", async () => {
  const srt = "1\n00:00:01,000 --> 00:00:02,000\nif x<y and z>w then\n\n" +
    "2\n00:00:03,000 --> 00:00:04,000\n<b and c>bold</b> <ad>kept</ad>\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["if x<y and z>w then", "<x1>bold</x1> <x2>kept</x2>"]);
  assert.equal(
    text,
    srt.replace("if x<y and z>w then", "IF X<Y AND Z>W THEN").replace(">bold<", ">BOLD<").replace(
      ">kept<",
      ">KEPT<",
    ),
  );
});

Deno.test("subtitle mode reads an SRT file whose timings write single-digit fields", async () => {
  const srt = "1\n0:0:1,0 --> 0:0:2,0\nHello\n\n2\n0:0:3,5 --> 0:0:4,5\nBye\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Hello", "Bye"]);
  assert.equal(text, srt.replace("Hello", "HELLO").replace("Bye", "BYE"));
});

Deno.test("subtitle mode keeps the tags of an item that is one cue's text, not a whole file", async () => {
  const cue = "{\\an8}<i>Hello</i> there\n<v Bob>Tom &amp; Jerry";
  const { texts, sent } = await translateUpperCased([cue], { mode: "subtitle" });
  assert.deepEqual(sent, ["<x1/><x2>Hello</x2> there<x3/>Tom <x4/> Jerry"]);
  assert.deepEqual(texts, ["{\\an8}<i>HELLO</i> THERE\n<v Bob>TOM &amp; JERRY"]);
});

Deno.test("subtitle mode translates an SRT cue line of numbers around -->, which players show as text", async () => {
  // Players read a timing only with `:` in its timestamps; `1 --> 2` is cue text to them.
  const srt = "1\n00:00:01,000 --> 00:00:02,000\n1 --> 2 steps\n\n" +
    "2\n00:00:03,000 --> 00:00:04,000\nWe won\n3 --> 2 tonight\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["1 --> 2 steps", "We won<x1/>3 --> 2 tonight"]);
  assert.equal(text, upperCase(srt));
});

Deno.test("subtitle mode reads an SRT file whose lines end in CR CR LF (converted twice) as a file", async () => {
  // Read as one cue's text, its timings went to the engine and lost their arrows.
  const srt = "1\r\r\n00:00:01,000 --> 00:00:02,000\r\r\nHello\r\r\nthere\r\r\n\r\r\n" +
    "2\r\r\n00:00:03,000 --> 00:00:04,000\r\r\nGood bye\r\r\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Hello", "there", "Good bye"]);
  assert.equal(text, upperCase(srt));
});

Deno.test("subtitle mode translates a WebVTT cue that a NOTE, STYLE or REGION line runs into", async () => {
  // Browsers' WebVTT parser reads a block whose second line is a timing as a cue (its first line
  // the identifier), and a timing further down as the start of a new block: both are shown.
  const vtt = "WEBVTT\n\nNOTE comment\n00:01.000 --> 00:02.000\nHello there\n\n" +
    "STYLE\n::cue { color: red }\n00:03.000 --> 00:04.000\nGood bye\n\n" +
    "NOTE a note that stays\n\n00:05.000 --> 00:06.000\nSee you\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["Hello there", "Good bye", "See you"]);
  assert.equal(
    text,
    vtt.replace("Hello there", "HELLO THERE").replace("Good bye", "GOOD BYE")
      .replace("See you", "SEE YOU"),
  );
});

Deno.test("subtitle mode reads an SRT file with a line before its first cue (a site's credit) as a file", async () => {
  // Players find cues at their timing lines wherever the first stands; read as one cue's text,
  // its timings went to the engine and lost their arrows.
  const srt =
    "Subtitles downloaded from example.org\n\n1\n00:00:01,000 --> 00:00:02,000\nHello\n\n" +
    "2\n00:00:03,000 --> 00:00:04,000\nBye\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Subtitles downloaded from example.org", "Hello", "Bye"]);
  assert.equal(text, upperCase(srt));
});
