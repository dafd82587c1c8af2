/**
 * How subtitle files reach a chat engine, read from what the runner stand-in receives: the cues
 * of two files never share a request (the prompt calls a request's cues one video's), and a file
 * cut into several requests gives each later one the cues just before it, to read and not to
 * translate.
 */
import assert from "node:assert/strict";
import { translateOk } from "../../support/chat_engine_checks.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

/** The user payload of a chat request the runner received. */
interface Payload {
  items: { id: string; text: string }[];
  preceding?: string[];
}

function payload(chat: Record<string, unknown>): Payload {
  return JSON.parse((chat.messages as { content: string }[])[1].content);
}

function systemPrompt(chat: Record<string, unknown>): string {
  return (chat.messages as { content: string }[])[0].content;
}

/** An SRT file of `lines`, one cue each, a second apart. */
function srt(lines: readonly string[]): string {
  return lines.map((line, index) =>
    `${index + 1}\n00:00:${String(index).padStart(2, "0")},000 --> ` +
    `00:00:${String(index).padStart(2, "0")},900\n${line}\n`
  ).join("\n");
}

function translatedSrt(lines: readonly string[]): string {
  return srt(lines.map(standInTranslation));
}

const request = (texts: string[]) => ({
  source: "de",
  target: "en",
  texts,
  mode: "subtitle",
  options: { engine: "engine-one" },
});

Deno.test("two subtitle files of one request go to a chat engine in requests of their own", async () => {
  const first = ["Wo warst du gestern?", "Ich war zu Hause."];
  const second = ["Der Zug fährt ab.", "Beeil dich!"];
  await withStandInService({}, async (service, runner) => {
    const body = await translateOk(service, request([srt(first), srt(second)]));
    assert.deepEqual(body.results.map((result) => result.text), [
      translatedSrt(first),
      translatedSrt(second),
    ]);
    assert.deepEqual(
      runner.chats.map((chat) => payload(chat).items.map((item) => item.text)),
      [first, second],
    );
    // Each file's first request has no earlier cues: the other file's are not its context.
    assert.deepEqual(runner.chats.map((chat) => payload(chat).preceding), [undefined, undefined]);
  });
});

Deno.test("cue texts sent as items of one request still go to a chat engine together", async () => {
  const cues = ["Wo warst du gestern?", "Ich war zu Hause.", "Beeil dich!"];
  await withStandInService({}, async (service, runner) => {
    const body = await translateOk(service, request(cues));
    assert.deepEqual(body.results.map((result) => result.text), cues.map(standInTranslation));
    assert.deepEqual(runner.chats.map((chat) => payload(chat).items.length), [3]);
  });
});

Deno.test("a subtitle file cut into several chat requests gives each later one the cues before it", async () => {
  const lines = Array.from(
    { length: 40 },
    (_, index) => `Zeile ${index + 1}: das ist ein ganz gewöhnlicher Satz.`,
  );
  await withStandInService({ engineOne: { num_ctx: 1024 } }, async (service, runner) => {
    const body = await translateOk(service, request([srt(lines)]));
    assert.equal(body.results[0].text, translatedSrt(lines));
    assert.ok(runner.chats.length >= 3, `${runner.chats.length} requests`);
    const sent = runner.chats.map((chat) => payload(chat).items.map((item) => item.text));
    assert.deepEqual(sent.flat(), lines);
    assert.equal(payload(runner.chats[0]).preceding, undefined);
    for (let index = 1; index < runner.chats.length; index++) {
      const before = sent.slice(0, index).flat().slice(-3);
      assert.deepEqual(payload(runner.chats[index]).preceding, before);
      assert.match(systemPrompt(runner.chats[index]), /"preceding"[^.]*never translate/);
    }
    assert.doesNotMatch(systemPrompt(runner.chats[0]), /"preceding"/);
  });
});
