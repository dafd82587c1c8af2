import assert from "node:assert/strict";
import { isSubtitleFile } from "../../../translation/formats/subtitles.ts";
import { textFormat } from "../../../translation/formats/text.ts";
import { dropPlaceholders, translateItem, upperCase } from "../../support/format_engines.ts";

const SRT =
  "\uFEFF1\r\n00:00:01,000 --> 00:00:03,500\r\n<i>Hello there,</i>\r\nmy old friend.\r\n\r\n" +
  "2\r\n00:00:04,000 --> 00:00:05,000\r\nWait\r\n\r\n" +
  "3\r\n00:00:05,100 --> 00:00:07,000\r\nthis sentence runs\r\n\r\n" +
  "4\r\n00:00:07,100 --> 00:00:09,000\r\nover three cues.\r\n\r\n" +
  "5\r\n00:00:09,000 --> 00:00:10,000\r\n{\\an8}Top line &amp; more\r\n";

const VTT = "WEBVTT - Example\nKind: captions\n\nSTYLE\n::cue { color: yellow }\n\n" +
  "NOTE This is a comment\nspanning two lines\n\nREGION\nid:fred width:40%\n\n" +
  "intro\n00:01.000 --> 00:04.000 position:10%,line-left align:left size:35%\n" +
  "<v Roger Bingham>We are in New York City\n<b>really</b> now</v>\n\n" +
  "00:05.000 --> 00:06.000\n<c.loud>Yes!</c> <00:05.500>Go\n\n" +
  "00:07.000 --> 00:08.000\n♪ ♪\n";

Deno.test("isSubtitleFile recognises SRT and WebVTT, not prose", () => {
  assert.equal(isSubtitleFile(SRT), true);
  assert.equal(isSubtitleFile(VTT), true);
  assert.equal(isSubtitleFile("1 apple\n2 pears"), false);
  assert.equal(isSubtitleFile("WEBVTTX"), false);
});

Deno.test("an SRT file keeps BOM, CRLF, indices and timings; cues keep their line count", async () => {
  const result = await translateItem(textFormat, SRT, upperCase, { mode: "subtitle" });
  assert.deepEqual(result.sent, [
    "<x1>Hello there,</x1><x2/>my old friend.",
    "Wait",
    "this sentence runs",
    "over three cues.",
    "<x1/>Top line <x2/> more",
  ]);
  assert.equal(
    result.text,
    SRT.replace("Hello there,", "HELLO THERE,").replace("my old friend.", "MY OLD FRIEND.")
      .replace("Wait", "WAIT").replace("this sentence runs", "THIS SENTENCE RUNS")
      .replace("over three cues.", "OVER THREE CUES.").replace("Top line", "TOP LINE").replace(
        " more",
        " MORE",
      ),
  );
});

Deno.test("a WebVTT file keeps header, STYLE, NOTE, REGION, identifiers and cue settings", async () => {
  const result = await translateItem(textFormat, VTT, upperCase, { mode: "subtitle" });
  assert.deepEqual(result.sent, [
    "<x1>We are in New York City<x2/><x3>really</x3> now</x1>",
    "<x1>Yes!</x1> <x2/>Go",
  ]);
  const lines = result.text.split("\n");
  const source = VTT.split("\n");
  assert.equal(lines.length, source.length);
  for (const [index, line] of source.entries()) {
    if (/[a-z]/.test(line) && (line.startsWith("<") || line.startsWith("really"))) continue;
    assert.equal(lines[index], line);
  }
  assert.ok(
    result.text.includes("<v Roger Bingham>WE ARE IN NEW YORK CITY\n<b>REALLY</b> NOW</v>"),
  );
});

Deno.test("a cue keeps its line breaks when the engine drops placeholders", async () => {
  const result = await translateItem(textFormat, SRT, dropPlaceholders, { mode: "subtitle" });
  assert.equal(result.fallbacks, 2);
  assert.ok(result.text.includes("<i>HELLO THERE,</i>\r\nMY OLD FRIEND.\r\n"));
});

Deno.test("one cue's text in subtitle mode keeps its line breaks", async () => {
  const result = await translateItem(textFormat, "Two lines\nof a cue", dropPlaceholders, {
    mode: "subtitle",
  });
  assert.equal(result.text, "TWO LINES\nOF A CUE");
});

Deno.test("an engine's line breaks never add lines to a cue, nor its --> a timing", async () => {
  const breaking = (text: string) => upperCase(text).replace(/ /g, "\n\n");
  const srt = "1\r\n00:00:01,000 --> 00:00:02,000\r\nWhere were\r\nyou?\r\n\r\n" +
    "2\r\n00:00:03,000 --> 00:00:04,000\r\nHere.\r\n";
  const output = (await translateItem(textFormat, srt, breaking, { mode: "subtitle" })).text;
  assert.equal(
    output,
    "1\r\n00:00:01,000 --> 00:00:02,000\r\nWHERE WERE\r\nYOU?\r\n\r\n" +
      "2\r\n00:00:03,000 --> 00:00:04,000\r\nHERE.\r\n",
  );
  const vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\nGo right\n";
  const arrow = (await translateItem(textFormat, vtt, (text) => `${text} --> left`, {
    mode: "subtitle",
  })).text;
  assert.equal(arrow, "WEBVTT\n\n00:01.000 --> 00:02.000\nGo right --&gt; left\n");
  // Cue text is markup in WebVTT: an engine's tag or reference is text.
  const tagged = (await translateItem(textFormat, vtt, (text) => `${text} <b>&`, {
    mode: "subtitle",
  })).text;
  assert.equal(tagged, "WEBVTT\n\n00:01.000 --> 00:02.000\nGo right &lt;b>&amp;\n");
  // One cue's text (not a whole file) keeps its line count too.
  const cue = await translateItem(textFormat, "Hello there,\nfriend.", breaking, {
    mode: "subtitle",
  });
  assert.equal(cue.text, "HELLO THERE,\nFRIEND.");
});
