/**
 * How subtitle files reach a chat engine, read from what the runner stand-in receives: small
 * files share a request, each cue marked with its file (read apart, as the prompt says), and a
 * file cut into several requests gives each later one its own cues just before it, as text
 * without placeholder tags, to read and not to translate.
 */
import assert from "node:assert/strict";
import { translateOk } from "../../support/chat_engine_checks.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

/** The user payload of a chat request the runner received. */
interface Payload {
  items: { id: string; text: string; file?: number }[];
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

Deno.test("29 small subtitle files of one request share one chat request, each cue marked with its file", async () => {
  const files = Array.from({ length: 29 }, (_, file) => [`Datei ${file + 1}: Hallo.`, "Tschüss."]);
  await withStandInService({}, async (service, runner) => {
    const body = await translateOk(service, request(files.map(srt)));
    assert.deepEqual(body.results.map((result) => result.text), files.map(translatedSrt));
    assert.equal(runner.chats.length, 1);
    const items = payload(runner.chats[0]).items;
    assert.deepEqual(items.map((item) => item.text), files.flat());
    assert.deepEqual(
      items.map((item) => item.file),
      files.flatMap((_, file) => [file + 1, file + 1]),
    );
    assert.equal(payload(runner.chats[0]).preceding, undefined);
    assert.match(systemPrompt(runner.chats[0]), /"file"[^.]*separate subtitle files/);
  });
});

Deno.test("a request of one subtitle file marks no files", async () => {
  const lines = ["Wo warst du gestern?", "Ich war zu Hause."];
  await withStandInService({}, async (service, runner) => {
    await translateOk(service, request([srt(lines)]));
    assert.deepEqual(payload(runner.chats[0]).items.map((item) => item.file), [
      undefined,
      undefined,
    ]);
    assert.doesNotMatch(systemPrompt(runner.chats[0]), /"file"/);
  });
});

Deno.test("a chat request that starts inside a subtitle file reads only that file's earlier cues", async () => {
  const long = Array.from(
    { length: 40 },
    (_, index) => `Zeile ${index + 1}: das ist ein ganz gewöhnlicher Satz.`,
  );
  const files = [long, ["Der Zug fährt ab.", "Beeil dich!"], long.map((line) => `B ${line}`)];
  await withStandInService({ engineOne: { num_ctx: 1024 } }, async (service, runner) => {
    const body = await translateOk(service, request(files.map(srt)));
    assert.deepEqual(body.results.map((result) => result.text), files.map(translatedSrt));
    const owner = new Map(files.flatMap((lines, file) => lines.map((line) => [line, file + 1])));
    for (const chat of runner.chats) {
      const { items, preceding = [] } = payload(chat);
      const file = owner.get(items[0].text)!;
      assert.ok(preceding.every((text) => owner.get(text) === file), JSON.stringify(preceding));
      const first = files[file - 1].indexOf(items[0].text);
      assert.deepEqual(preceding, files[file - 1].slice(Math.max(first - 3, 0), first));
    }
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

Deno.test("the earlier cues a chat request reads are text, without placeholder tags", async () => {
  const lines = Array.from(
    { length: 40 },
    (_, index) => `{\\an8}Zeile ${index + 1}: das ist <i>ganz</i>\ngewöhnlich, <b>oder</b>?`,
  );
  await withStandInService({ engineOne: { num_ctx: 1024 } }, async (service, runner) => {
    await translateOk(service, request([srt(lines)]));
    assert.ok(runner.chats.length >= 2, `${runner.chats.length} requests`);
    const preceding = runner.chats.slice(1).flatMap((chat) => payload(chat).preceding ?? []);
    assert.ok(preceding.length > 0);
    for (const text of preceding) {
      assert.match(text, /^Zeile \d+: das ist ganz gewöhnlich, oder\?$/);
    }
  });
});
