/**
 * The tag options (`ignore_tags`, `splitting_tags`, `non_splitting_tags`, `outline_detection`)
 * over HTTP and the WebSocket, and their refusal where the format does not read them. The
 * stand-in upper-cases what it is sent, so a text that comes back as written was never sent.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { upperCase } from "../../support/format_engines.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { postTranslate, withTranslationService } from "../../support/translation_service.ts";
import { close, connect } from "../../support/ws_client.ts";

const DOCUMENT = '<?xml version="1.0"?>\n<doc>\n  <title>Release notes</title>\n' +
  "  <par>Press <b>Save</b> to keep the <var>file name</var>.</par>\n" +
  "  <note>Internal draft.</note>\n</doc>";

/** Named requests: tag options, and what comes back for DOCUMENT (or another item). */
const CASES = [
  {
    name: "format xml cuts a document at its structure by default",
    fields: { format: "xml" },
    expected: '<?xml version="1.0"?>\n<doc>\n  <title>RELEASE NOTES</title>\n' +
      "  <par>PRESS <b>SAVE</b> TO KEEP THE <var>FILE NAME</var>.</par>\n" +
      "  <note>INTERNAL DRAFT.</note>\n</doc>",
    sent: [
      "Release notes",
      "Press <x1>Save</x1> to keep the <x2>file name</x2>.",
      "Internal draft.",
    ],
  },
  {
    name: "ignore_tags keeps whole elements, structure or inline, untranslated",
    fields: { format: "xml", options: { ignore_tags: ["note", "var"] } },
    expected: '<?xml version="1.0"?>\n<doc>\n  <title>RELEASE NOTES</title>\n' +
      "  <par>PRESS <b>SAVE</b> TO KEEP THE <var>file name</var>.</par>\n" +
      "  <note>Internal draft.</note>\n</doc>",
    sent: ["Release notes", "Press <x1>Save</x1> to keep the <x2/>."],
  },
  {
    name: "outline_detection false: every element inside one unit",
    fields: { format: "xml", options: { outline_detection: false } },
    expected: '<?xml version="1.0"?>\n<doc>\n  <title>RELEASE NOTES</title>\n' +
      "  <par>PRESS <b>SAVE</b> TO KEEP THE <var>FILE NAME</var>.</par>\n" +
      "  <note>INTERNAL DRAFT.</note>\n</doc>",
    sent: [
      "<x1>Release notes</x1>\n  <x2>Press <x3>Save</x3> to keep the <x4>file name</x4>.</x2>\n" +
      "  <x5>Internal draft.</x5>",
    ],
  },
  {
    name: "splitting_tags split inside a sentence",
    item: "<p>First line<br/>second line</p>",
    fields: { format: "xml", options: { splitting_tags: ["br"] } },
    expected: "<p>FIRST LINE<br/>SECOND LINE</p>",
    sent: ["First line", "second line"],
  },
  {
    name: "non_splitting_tags join a sentence running over two elements",
    item: "<content><par>The firm said it had been</par><par>looking into it.</par></content>",
    fields: { format: "xml", options: { non_splitting_tags: ["par"] } },
    expected: "<content><par>THE FIRM SAID IT HAD BEEN</par><par>LOOKING INTO IT.</par></content>",
    sent: ["<x1>The firm said it had been</x1><x2>looking into it.</x2>"],
  },
  {
    name: "format html reads ignore_tags as never-translated elements",
    item: '<p>Open <span class="ui">Settings</span> now.</p><aside>Keep me.</aside>',
    fields: { format: "html", options: { ignore_tags: ["SPAN", "aside"] } },
    expected: '<p>OPEN <span class="ui">Settings</span> NOW.</p><aside>Keep me.</aside>',
    sent: ["Open <x1/> now."],
  },
];

/** The item texts of the stand-in's chat requests (each user message is a JSON object). */
function sentTexts(chats: Record<string, unknown>[]): string[] {
  return chats.flatMap((chat) => {
    const messages = chat.messages as { content: string }[];
    return JSON.parse(messages.at(-1)!.content).items.map((item: { text: string }) => item.text);
  });
}

Deno.test("tag options shape what is sent, on POST /v1/translate and the WebSocket alike", async () => {
  const runner = startOllamaStandIn({ translate: upperCase });
  try {
    await withTranslationService(async (service) => {
      const requests = CASES.map(({ item, fields }) => ({
        source: "en",
        target: "fr",
        texts: [item ?? DOCUMENT],
        mode: "document",
        ...fields,
        options: { engine: "engine-one", ...fields.options },
      }));
      const socket = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
      try {
        for (const [index, { name, expected, sent }] of CASES.entries()) {
          const before = runner.chats.length;
          const body = await expectBody(
            await postTranslate(service, requests[index]),
            200,
            TranslateResponseSchema,
          );
          assert.equal(body.results[0].text, expected, name);
          assert.deepEqual(sentTexts(runner.chats.slice(before)), sent, name);
          socket.socket.send(JSON.stringify(requests[index]));
          const reply = TranslateResponseSchema.parse(await socket.next());
          assert.equal(reply.results[0].text, expected, `${name} (WebSocket)`);
        }
      } finally {
        await close(socket);
      }
    }, {
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    });
  } finally {
    await runner.stop();
  }
});

Deno.test("a tag option the format does not read is refused, naming the option", async () => {
  await withTranslationService(async (service) => {
    for (
      const [fields, param] of [
        [{ options: { ignore_tags: ["b"] } }, "options.ignore_tags"],
        [{ format: "markdown", options: { ignore_tags: ["b"] } }, "options.ignore_tags"],
        [{ format: "html", options: { splitting_tags: ["br"] } }, "options.splitting_tags"],
        [{ format: "html", options: { outline_detection: false } }, "options.outline_detection"],
        [
          { format: "xml", options: { non_splitting_tags: ["a b"] } },
          "options.non_splitting_tags[0]",
        ],
      ] as const
    ) {
      const response = await postTranslate(service, { target: "fr", texts: ["Hi"], ...fields });
      const body = await expectError(response, 400, "invalid_request", param);
      assert.match(body.error.message, /format|element name/);
    }
  });
});
