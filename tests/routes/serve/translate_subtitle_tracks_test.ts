/**
 * WebVTT files of every track kind a video player loads, in `subtitle` mode over HTTP: captions
 * with an HLS header, chapters (their titles are shown, so translated), metadata (a script
 * reads their JSON payloads) and thumbnails (a player's seek bar loads their images): the last two
 * never sent, kept byte for byte.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

async function translateFile(file: string) {
  const { texts, sent } = await translateUpperCased([file], { mode: "subtitle" });
  return { text: texts[0], sent };
}

Deno.test("subtitle mode keeps the JSON payloads of a WebVTT metadata track byte for byte, never sent", async () => {
  const vtt = "WEBVTT\n\nslide-1\n00:00.000 --> 00:05.000\n" +
    '{"title": "Intro", "slide": 3}\n\n00:05.000 --> 00:10.000\n[\n  {"caption": "Next slide"}\n]\n\n' +
    "00:10.000 --> 00:12.000\nWelcome back\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["Welcome back"]);
  assert.equal(text, vtt.replace("Welcome back", "WELCOME BACK"));
});

Deno.test("subtitle mode translates chapter titles and SDH brackets, which only look like JSON", async () => {
  const vtt = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\nchapter-1\n" +
    "00:00.000 --> 01:00.000\n[door slams]\n\n01:00.000 --> 02:00.000\n{Part two}\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["[door slams]", "{Part two}"]);
  assert.equal(
    text,
    vtt.replace("[door slams]", "[DOOR SLAMS]").replace("{Part two}", "{PART TWO}"),
  );
});

Deno.test("subtitle mode keeps the image references of a WebVTT thumbnail track byte for byte, never sent", async () => {
  // What Video.js, JW Player and Plyr load for seek-bar previews: one image (a sprite's region
  // after #xywh=) per cue.
  const vtt = "WEBVTT\n\n00:00.000 --> 00:05.000\n/assets/thumbnails.jpg#xywh=0,0,160,90\n\n" +
    "00:05.000 --> 00:10.000\nsprite.png#xywh=160,0,160,90\n\n" +
    "00:10.000 --> 00:15.000\nthumbs/thumb-0004.JPG?v=2\n\n00:15.000 --> 00:20.000\nSee thumb.jpg\n";
  const { text, sent } = await translateFile(vtt);
  assert.deepEqual(sent, ["See thumb.jpg"]);
  assert.equal(text, vtt.replace("See thumb.jpg", "SEE THUMB.JPG"));
});
