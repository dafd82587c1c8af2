/**
 * An item over the per-item limit is refused with words that say which item it is and what to
 * do: a real subtitle file (100–150 cues) is over it, and must be sent in parts.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import { postTranslate, withTranslationService } from "../../support/translation_service.ts";

/** A file of `cues` cues, each `text` (an SRT file, or a WebVTT one with `vtt`). */
function subtitleFile(cues: number, text: string, vtt = false): string {
  const blocks = Array.from({ length: cues }, (_, index) => {
    const second = String(index % 60).padStart(2, "0");
    const minute = String(Math.floor(index / 60)).padStart(2, "0");
    const timing = vtt
      ? `${minute}:${second}.000 --> ${minute}:${second}.900`
      : `00:${minute}:${second},000 --> 00:${minute}:${second},900`;
    return vtt ? `${timing}\n${text}\n` : `${index + 1}\n${timing}\n${text}\n`;
  });
  return (vtt ? "WEBVTT\n\n" : "") + blocks.join("\n");
}

const LINE = "I told you already, we are not going back there tonight.";

const CASES = [
  {
    name: "an SRT file of 150 cues",
    texts: ["Hallo", subtitleFile(150, LINE)],
    index: 1,
    hint: /several items[^.]*between (?:two )?cues/,
  },
  {
    name: "a WebVTT file of 150 cues",
    texts: [subtitleFile(150, LINE, true)],
    index: 0,
    hint: /several items[^.]*between (?:two )?cues[^.]*WEBVTT/,
  },
  {
    name: "a plain text",
    texts: ["x".repeat(8001)],
    index: 0,
    hint: /several items/,
  },
];

Deno.test("POST /v1/translate names the over-long item, the limit and how to send it in parts", async () => {
  await withTranslationService(async (service) => {
    for (const row of CASES) {
      const response = await postTranslate(service, {
        target: "de",
        mode: "subtitle",
        texts: row.texts,
      });
      const body = await expectError(response, 413, "payload_too_large", "texts");
      const { message } = body.error;
      const length = [...row.texts[row.index]].length;
      assert.ok(message.includes(`texts[${row.index}]`), `${row.name}: ${message}`);
      assert.ok(message.includes(`${length} characters`), `${row.name}: ${message}`);
      assert.ok(message.includes("8000"), `${row.name}: ${message}`);
      assert.match(message, row.hint, row.name);
      if (row.name === "a plain text") assert.doesNotMatch(message, /cue/, row.name);
    }
  });
});
