/**
 * A whole subtitle file sent in `subtitle` mode with a markup `format` (a client that picks
 * `html` or `xml` because WebVTT cue text holds tags and references): it is read as a file, its
 * indices, timings and headers never sent and kept byte for byte, as in `format: "text"`.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

const SRT = "1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\nthere\n\n" +
  "2\n00:00:03,000 --> 00:00:04,000\nBye\n";
const VTT = "WEBVTT\n\n00:01.000 --> 00:02.000\n<i>Hello</i> &amp; you\nthere\n";
const ASS = "[Script Info]\nScriptType: v4.00+\n\n[Events]\n" +
  "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n" +
  "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}Hello{\\i0}\\Nthere\n";

for (const format of ["html", "markdown", "xml"]) {
  Deno.test(`subtitle mode reads an SRT, WebVTT or ASS file sent as format ${format} as a file`, async () => {
    const { texts, sent } = await translateUpperCased([SRT, VTT, ASS], {
      mode: "subtitle",
      format,
    });
    assert.deepEqual(texts, [
      SRT.replace("Hello", "HELLO").replace("there", "THERE").replace("Bye", "BYE"),
      VTT.replace("Hello", "HELLO").replace("you\nthere", "YOU\nTHERE"),
      ASS.replace("Hello", "HELLO").replace("there", "THERE"),
    ]);
    assert.deepEqual(
      sent.toSorted(),
      [
        "<x1>Hello</x1><x2/>there",
        "Bye",
        "<x1>Hello</x1> & you<x2/>there",
        "<x1/>Hello<x2/>there",
      ].toSorted(),
    );
  });
}
