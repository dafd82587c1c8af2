/**
 * A UTF-16 subtitle file a client read as UTF-8 or Latin-1 (every other character U+0000) is
 * refused with a 400 naming the item and the encoding to decode it with, not translated as
 * one cue of garbage, nor given a language by /v1/detect; the same file decoded right is
 * translated.
 */
import assert from "node:assert/strict";
import { expectError, postJson } from "../../support/http_assertions.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { translateOk } from "../../support/chat_engine_checks.ts";
import { postTranslate } from "../../support/translation_service.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

const FILE = "1\r\n00:00:01,000 --> 00:00:02,000\r\nWo warst du gestern?\r\n\r\n" +
  "2\r\n00:00:03,000 --> 00:00:04,000\r\nIch war zu Hause, müde.\r\n";

/** `text` in UTF-16, with its byte-order mark when `bom`. */
function utf16(text: string, order: "le" | "be", bom: boolean): Uint8Array {
  const units = [...(bom ? "\uFEFF" : ""), ...text].flatMap((char) => {
    const code = char.charCodeAt(0);
    const pair = [code & 0xff, code >> 8];
    return order === "le" ? pair : pair.reverse();
  });
  return new Uint8Array(units);
}

const MISREAD_CASES = [
  { name: "UTF-16LE with BOM read as UTF-8", order: "le", bom: true, as: "utf-8" },
  { name: "UTF-16LE with BOM read as Latin-1", order: "le", bom: true, as: "windows-1252" },
  { name: "UTF-16LE without BOM read as UTF-8", order: "le", bom: false, as: "utf-8" },
  { name: "UTF-16BE with BOM read as UTF-8", order: "be", bom: true, as: "utf-8" },
  { name: "UTF-16BE without BOM read as Latin-1", order: "be", bom: false, as: "windows-1252" },
] as const;

const request = (texts: string[]) => ({
  source: "de",
  target: "en",
  texts,
  mode: "subtitle",
  options: { engine: "engine-one" },
});

for (const { name, order, bom, as } of MISREAD_CASES) {
  Deno.test(`POST /v1/translate refuses a ${name}, naming UTF-16${order.toUpperCase()}`, async () => {
    const misread = new TextDecoder(as).decode(utf16(FILE, order, bom));
    assert.ok(misread.includes("\u0000"));
    await withStandInService({}, async (service, runner) => {
      const body = await expectError(
        await postTranslate(service, request([FILE, misread])),
        400,
        "invalid_request",
        "texts[1]",
      );
      assert.match(body.error.message, new RegExp(`UTF-16${order.toUpperCase()}`));
      assert.match(body.error.message, /decode/);
      assert.equal(runner.chats.length, 0);
    });
  });
}

Deno.test("POST /v1/translate translates the same UTF-16 file decoded as UTF-16", async () => {
  const decoded = new TextDecoder("utf-16le").decode(utf16(FILE, "le", true));
  await withStandInService({}, async (service) => {
    const body = await translateOk(service, request([decoded]));
    assert.equal(
      body.results[0].text,
      FILE.replace("Wo warst du gestern?", standInTranslation("Wo warst du gestern?"))
        .replace("Ich war zu Hause, müde.", standInTranslation("Ich war zu Hause, müde.")),
    );
  });
});

Deno.test("POST /v1/translate still translates a text holding a few NULs", async () => {
  await withStandInService({}, async (service) => {
    const body = await translateOk(service, { ...request(["Hallo\u0000Welt, wie geht es?"]) });
    assert.equal(body.results.length, 1);
  });
});

Deno.test("POST /v1/detect refuses a UTF-16 file read as UTF-8, as /v1/translate does", async () => {
  const misread = new TextDecoder("utf-8").decode(utf16(FILE, "le", true));
  await withStandInService({}, async (service) => {
    const response = await postJson(`${service.url}/v1/detect`, { texts: ["Hallo", misread] }, {
      "x-svc-token": service.token,
    });
    const body = await expectError(response, 400, "invalid_request", "texts[1]");
    assert.match(body.error.message, /UTF-16LE/);
  });
});
