/**
 * What a subtitle file's cue lines hold, in `subtitle` mode over HTTP: lines that only look like
 * timings, timings followed by words, and ruby readings.
 */
import assert from "node:assert/strict";
import { upperCase } from "../../support/format_engines.ts";
import { translateUpperCased } from "../../support/format_requests.ts";

async function translateFile(file: string) {
  const { texts, sent } = await translateUpperCased([file], { mode: "subtitle" });
  return { text: texts[0], sent };
}

Deno.test("subtitle mode translates an SRT cue line of times around --> without hours, which players show as text", async () => {
  // FFmpeg and VLC read a timing only from hours, minutes and seconds: `00:05 --> 00:06` is text.
  const srt = "1\n00:00:01,000 --> 00:00:02,000\nSkip ahead\n00:05 --> 00:06 maybe\n\n" +
    "2\n00:00:03,000 --> 00:00:04,000\nBye\n";
  const { text, sent } = await translateFile(srt);
  assert.deepEqual(sent, ["Skip ahead<x1/>00:05 --> 00:06 maybe", "Bye"]);
  assert.equal(text, upperCase(srt));
});

Deno.test("subtitle mode translates a WebVTT cue line of times around --> without fractions, escaping its arrow", async () => {
  // No WebVTT timestamp lacks its fraction; browsers end the cue at any `-->` in its text (the
  // spec forbids one there), so the translation writes it `--&gt;` and the line is shown.
  const vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\nSkip ahead\n00:05 --> 00:06 maybe\n\n" +
    "00:03.000 --> 00:04.000\nBye\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["Skip ahead<x1/>00:05 --> 00:06 maybe", "Bye"]);
  assert.equal(
    text,
    vtt.replace("Skip ahead\n00:05 --> 00:06 maybe", "SKIP AHEAD\n00:05 --&gt; 00:06 MAYBE")
      .replace("Bye", "BYE"),
  );
});

Deno.test("subtitle mode starts a cue at a timing followed by words, which players skip as unknown settings", async () => {
  const vtt = "WEBVTT\n\n00:01.000 --> 00:02.000 line:0 position:10%\nHello\n" +
    "00:03.000 --> 00:04.000 maybe\nBye\n";
  const srt = "1\n00:00:01,000 --> 00:00:02,000 X1:10 X2:20 Y1:30 Y2:40\nHello\n" +
    "2\n00:00:03,000 --> 00:00:04,000 maybe\nBye\n";
  for (const file of [vtt, srt]) {
    const { text, sent } = await translateFile(file);
    assert.deepEqual(sent, ["Hello", "Bye"]);
    assert.equal(text, file.replace("Hello", "HELLO").replace("Bye", "BYE"));
  }
});

Deno.test("subtitle mode keeps a WebVTT ruby's readings as written: only the base text is translated", async () => {
  // As in HTML: a reading spells the source's base text, which no longer stands there translated.
  const vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\n<ruby>漢<rt>kan</rt></ruby>字 is hard\n\n" +
    "00:03.000 --> 00:04.000\n<ruby>Tokyo<rt>to kyo</ruby> and <ruby>Kyoto<rt>kyo to";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["<x1>漢<x2/></x1>字 is hard", "<x1>Tokyo<x2/></x1> and <x3/>Kyoto<x4/>"]);
  assert.equal(
    text,
    vtt.replace("字 is hard", "字 IS HARD").replace("Tokyo<", "TOKYO<")
      .replace("and <ruby>Kyoto", "AND <ruby>KYOTO"),
  );
});
