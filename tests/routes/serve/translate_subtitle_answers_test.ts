/**
 * An SRT file in `subtitle` mode through a chat engine whose answers hold what a player reads
 * as a new cue: a timing line (after a cue's line break or at its start), or a line left
 * empty. Such an answer is asked again; one that stays so never adds or ends a cue: the file
 * comes back with the same cues and timings (read by a real subtitle parser) and blocks.
 */
import assert from "node:assert/strict";
import { translateOk, translateOverWebSocket } from "../../support/chat_engine_checks.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { upperCase } from "../../support/format_engines.ts";
import { translateThrough, translateUpperCased } from "../../support/format_requests.ts";
import { loadCorpus, structureOf } from "../../support/document_structure.ts";
import { playerCues } from "../../support/subtitle_reader.ts";
import type { TestService } from "../../support/translation_service.ts";
import { withChatCompletionsService } from "../../support/chat_completions_service.ts";

const SRT = "1\n00:00:01,000 --> 00:00:02,000\nHello there\ngeneral Kenobi\n\n" +
  "2\n00:00:03,000 --> 00:00:04,000\nGood bye\n";
/** What the engine is sent for the first cue: its line break is a placeholder. */
const FIRST_CUE = "Hello there<x1/>general Kenobi";
const GOOD = "1\n00:00:01,000 --> 00:00:02,000\nHallo da\nGeneral Kenobi\n\n" +
  "2\n00:00:03,000 --> 00:00:04,000\nTschüss\n";

function translateSrt(service: TestService, srt = SRT) {
  return translateOk(service, {
    source: "en",
    target: "de",
    mode: "subtitle",
    options: { engine: "compatible-api" },
    texts: [srt],
  });
}

/** The blocks between blank lines, as a strict reader cuts them. */
function blocks(file: string): number {
  return file.split(/\r?\n[^\S\r\n]*\r?\n/).filter((block) => block.trim() !== "").length;
}

function assertSameCues(output: string, input: string) {
  const timings = (file: string) => playerCues(file).map(({ start, end }) => [start, end]);
  assert.deepEqual(timings(output), timings(input), output);
  assert.equal(blocks(output), blocks(input), output);
  for (const cue of playerCues(output)) assert.notEqual(cue.text.trim(), "", output);
}

/** First-cue answers a player would read as more cues, or as a cue cut short. */
const CUE_BREAKING_ANSWERS = [
  {
    name: "a timing line after its line break",
    first: "Hallo<x1/>00:00:05,000 --> 00:00:06,000 da",
  },
  { name: "a timing line written with dots", first: "Hallo<x1/>00:00:05.000 --> 00:00:06.000" },
  { name: "a number line then a timing line", first: "5<x1/>00:00:05,000 --> 00:00:06,000 Hallo" },
  { name: "a timing line as its first line", first: "00:00:05,000 --> 00:00:06,000<x1/>Hallo" },
  { name: "an empty first line", first: "<x1/>Hallo da, General Kenobi" },
  { name: "an empty last line", first: "Hallo da, General Kenobi<x1/>" },
  { name: "an empty line made of spaces", first: "Hallo da <x1/>  " },
];

for (const { name, first } of CUE_BREAKING_ANSWERS) {
  const broken = JSON.stringify({ "1": first, "2": "Tschüss" });
  Deno.test(`subtitle mode asks a chat engine again when a cue's answer holds ${name}`, async () => {
    const good = JSON.stringify({ "1": "Hallo da<x1/>General Kenobi" });
    await withChatCompletionsService({ completions: [broken, good] }, async (service, backend) => {
      const body = await translateSrt(service);
      assert.equal(body.results[0].text, GOOD);
      assert.equal(backend.chats.length, 2);
      assert.ok(JSON.stringify(backend.chats[1]).includes(JSON.stringify(FIRST_CUE).slice(1, -1)));
    });
  });

  Deno.test(`subtitle mode keeps the cues and timings of an SRT file when a chat engine keeps answering ${name}`, async () => {
    const again = JSON.stringify({ "1": first });
    // Three attempts, then the fallback asks for each line of the cue on its own.
    const runs = JSON.stringify({ "1": "Hallo da", "2": "General Kenobi" });
    await withChatCompletionsService(
      { completions: [broken, again, again, runs] },
      async (service) => {
        const body = await translateSrt(service);
        assertSameCues(body.results[0].text, SRT);
        assert.equal(body.results[0].text, GOOD);
      },
    );
  });
}

Deno.test("subtitle mode keeps the cues of an SRT file when a chat engine keeps putting a timing and an empty line in lines of its own", async () => {
  // The engine's own line breaks are spaces in the cue's line: what it wrote stays in that line.
  const own = "Hallo da<x1/>General Kenobi\n\n00:00:05,000 --> 00:00:06,000\nnoch mehr";
  const answer = JSON.stringify({ "1": own, "2": "Tschüss" });
  const again = JSON.stringify({ "1": own });
  await withChatCompletionsService(
    { completions: [answer, again, again] },
    async (service, backend) => {
      const output = (await translateSrt(service)).results[0].text;
      assertSameCues(output, SRT);
      assert.equal(backend.chats.length, 3, "asked again, then no line-by-line fallback");
      assert.equal(
        output,
        GOOD.replace("General Kenobi", "General Kenobi 00:00:05,000 --> 00:00:06,000 noch mehr"),
      );
    },
  );
});

Deno.test("subtitle mode takes the arrow out of a timing the fallback's answer still starts a line with", async () => {
  const broken = JSON.stringify({
    "1": "Hallo<x1/>00:00:05,000 --> 00:00:06,000 da",
    "2": "Tschüss",
  });
  const again = JSON.stringify({ "1": "Hallo<x1/>00:00:05,000 --> 00:00:06,000 da" });
  const runs = JSON.stringify({ "1": "Hallo da", "2": "00:00:05,000 --> 00:00:06,000 Kenobi" });
  const runAgain = JSON.stringify({ "2": "00:00:05,000 --> 00:00:06,000 Kenobi" });
  await withChatCompletionsService({
    completions: [broken, again, again, runs, runAgain, runAgain],
  }, async (service) => {
    const output = (await translateSrt(service)).results[0].text;
    assertSameCues(output, SRT);
    assert.equal(output, GOOD.replace("General Kenobi", "00:00:05,000 → 00:00:06,000 Kenobi"));
  });
});

Deno.test("subtitle mode asks engine-one (Ollama) three times, then line by line, for a cue whose answer holds a timing line", async () => {
  const { texts, sent } = await translateThrough(
    [SRT],
    { mode: "subtitle" },
    (text) => text === FIRST_CUE ? "HALLO<x1/>00:00:05,000 --> 00:00:06,000 DA" : upperCase(text),
  );
  const lines = ["Hello there", "general Kenobi"];
  assert.deepEqual(sent, [FIRST_CUE, "Good bye", FIRST_CUE, FIRST_CUE, ...lines]);
  assert.equal(texts[0], upperCase(SRT));
});

Deno.test("subtitle mode on the WebSocket asks again for a cue whose answer holds a timing line", async () => {
  const broken = JSON.stringify({
    "1": "Hallo<x1/>00:00:05,000 --> 00:00:06,000 da",
    "2": "Tschüss",
  });
  const good = JSON.stringify({ "1": "Hallo da<x1/>General Kenobi" });
  await withChatCompletionsService({ completions: [broken, good] }, async (service, backend) => {
    const reply = TranslateResponseSchema.parse(
      await translateOverWebSocket(service, {
        source: "en",
        target: "de",
        mode: "subtitle",
        options: { engine: "compatible-api" },
        texts: [SRT],
      }),
    );
    assert.equal(reply.results[0].text, GOOD);
    assert.equal(backend.chats.length, 2);
  });
});

Deno.test("subtitle mode puts back line by line a cue whose answer ends in a number line, an index to the timing after it", async () => {
  // No indices and no blank lines: a player reads a number line before a timing as its index.
  const srt = "00:00:01,000 --> 00:00:02,000\nHello there\ngeneral Kenobi\n" +
    "00:00:03,000 --> 00:00:04,000\nGood bye\n";
  const { texts, sent } = await translateThrough(
    [srt],
    { mode: "subtitle" },
    (text) => text === FIRST_CUE ? "HALLO<x1/>7" : upperCase(text),
  );
  assert.deepEqual(sent.slice(-2), ["Hello there", "general Kenobi"]);
  assert.equal(texts[0], upperCase(srt));
  assertSameCues(texts[0], srt);
});

/** Engines that answer every cue of a file with what would start or end a cue. */
const HOSTILE_ENGINES: Record<string, (text: string) => string> = {
  "a timing line first": (text) => `00:00:09,000 --> 00:00:10,000 ${upperCase(text)}`,
  "a timing line after each standalone placeholder": (text) =>
    upperCase(text).replace(/<x\d+\/>/g, (token) => `${token}00:00:09.000 --> 00:00:10.000 `),
  "a line emptied after the first standalone placeholder": (text) =>
    upperCase(text).replace(/(<x\d+\/>)[^<]*/, "$1"),
};

for (const document of loadCorpus().filter((document) => document.mode === "subtitle")) {
  for (const [name, engine] of Object.entries(HOSTILE_ENGINES)) {
    Deno.test(`subtitle mode keeps every non-cue line, cue line count and timing of ${document.name} against an engine writing ${name}`, async () => {
      const { texts } = await translateThrough([document.text], { mode: "subtitle" }, engine);
      // The skeleton holds every line outside cue text byte for byte, timing lines among them.
      assert.deepEqual(
        structureOf({ ...document, text: texts[0] }).skeleton,
        structureOf(document).skeleton,
      );
      // The library reads no STYLE or REGION block.
      if (!/^(?:STYLE|REGION)$/m.test(document.text)) assertSameCues(texts[0], document.text);
    });
  }
}

Deno.test("subtitle mode drops a byte-order mark an engine writes in a cue: read again, it would start a cue there", async () => {
  const { texts } = await translateThrough(
    [SRT],
    { mode: "subtitle" },
    (text) =>
      text === FIRST_CUE
        ? "HALLO\uFEFF00:00:05,000 --> 00:00:06,000 DA<x1/>KENOBI"
        : upperCase(text),
  );
  assert.ok(!texts[0].includes("\uFEFF"), JSON.stringify(texts[0]));
  // The translation translated again (into a third language) still has two cues.
  const again = await translateUpperCased([texts[0]], { mode: "subtitle" });
  assert.equal(again.sent.length, 2, JSON.stringify(again.sent));
});
