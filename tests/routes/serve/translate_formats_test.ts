/**
 * `format` and `mode` over HTTP and the WebSocket alike, and detection on `auto` reading the
 * visible text of a marked-up item.
 */
import assert from "node:assert/strict";
import { ErrorResponseSchema, TranslateResponseSchema } from "../../../schemas/translation.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import { startOllamaStandIn } from "../../support/ollama_stand_in.ts";
import { postTranslate, withTranslationService } from "../../support/translation_service.ts";

const HTML = '<p class="intro">Read <a href="/guide" title="The guide">the guide</a> first.</p>';
const SUBTITLES = "1\r\n00:00:01,000 --> 00:00:02,000\r\nHello there,\r\nfriend.\r\n";
const MESSAGE = "ping @ana: see https://x.org/a 🎉";
/** The stand-in's mark as Markdown writes it: its brackets escaped (they could make a link). */
const MARKED = "\\[translated\\]";

function askOverSocket(url: string, frames: unknown[]): Promise<unknown[]> {
  const socket = new WebSocket(url);
  const replies: unknown[] = [];
  return new Promise((resolve, reject) => {
    socket.onopen = () => frames.forEach((frame) => socket.send(JSON.stringify(frame)));
    socket.onmessage = (event) => {
      replies.push(JSON.parse(event.data));
      if (replies.length === frames.length) socket.close(1000);
    };
    socket.onclose = () => resolve(replies);
    socket.onerror = () => reject(new Error("WebSocket failed"));
  });
}

/**
 * The one result of `item` translated from en into fr through engine-one, a stand-in answering
 * with `translate` (default: the stand-in's own mark).
 */
async function throughStandIn(
  item: string,
  fields: { format?: string; mode: string },
  translate?: (text: string) => string,
): Promise<string> {
  const runner = startOllamaStandIn(translate ? { translate } : {});
  let text = "";
  try {
    await withTranslationService(async (service) => {
      const body = await expectBody(
        await postTranslate(service, {
          source: "en",
          target: "fr",
          ...fields,
          options: { engine: "engine-one" },
          texts: [item],
        }),
        200,
        TranslateResponseSchema,
      );
      text = body.results[0].text;
    }, {
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    });
  } finally {
    await runner.stop();
  }
  return text;
}

Deno.test("format and mode give the same translation on POST /v1/translate and the WebSocket", async () => {
  const runner = startOllamaStandIn();
  try {
    await withTranslationService(async (service) => {
      const requests = [
        { texts: [HTML], format: "html", mode: "webpage" },
        { texts: [SUBTITLES], mode: "subtitle" },
        { texts: [MESSAGE], mode: "message" },
        { texts: ["# Title\n\nSome *text*.\n"], format: "markdown" },
      ].map((fields) => ({
        source: "en",
        target: "fr",
        options: { engine: "engine-one" },
        ...fields,
      }));
      const overHttp = [];
      for (const request of requests) {
        const body = await expectBody(
          await postTranslate(service, request),
          200,
          TranslateResponseSchema,
        );
        overHttp.push(body.results[0].text);
      }
      assert.deepEqual(overHttp, [
        '<p class="intro">[translated] Read <a href="/guide" title="[translated] The guide">the guide</a> first.</p>',
        "1\r\n00:00:01,000 --> 00:00:02,000\r\n[translated] Hello there,\r\nfriend.\r\n",
        "ping @ana: see https://x.org/a 🎉".replace("ping", "[translated] ping"),
        "# \\[translated\\] Title\n\n\\[translated\\] Some *text*.\n",
      ]);
      const replies = await askOverSocket(
        `${service.wsUrl}/v1/ws/translate?token=${service.token}`,
        requests,
      );
      const overSocket = replies.map((reply) =>
        TranslateResponseSchema.parse(reply).results[0].text
      );
      assert.deepEqual(overSocket, overHttp);
    }, {
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    });
  } finally {
    await runner.stop();
  }
});

const VISIBLE_TEXT_CASES = [
  {
    name: "French HTML inside English-named markup and code",
    format: "html",
    text:
      '<div class="main-content article-body"><pre><code>const message = "hello world";</code></pre>' +
      '<p class="lead-paragraph">Bonjour, je voudrais réserver une chambre pour deux nuits.</p></div>',
    language: "fr",
  },
  {
    name: "German Markdown with an English code fence",
    format: "markdown",
    text: "```sh\nnpm install the package and then run the tests\n```\n\n" +
      "Guten Morgen, wie geht es dir heute? Das Wetter ist schön.\n",
    language: "de",
  },
  {
    name: "a French WebVTT file with an English NOTE block",
    format: "text",
    mode: "subtitle",
    text: "WEBVTT\n\nNOTE This file was exported by the subtitle editor. Please review the " +
      "timing of every cue and the spelling of every name before you publish it.\n\n" +
      "1\n00:00:01.000 --> 00:00:03.000\nBonjour, je voudrais réserver une chambre.\n\n" +
      "2\n00:00:03.500 --> 00:00:06.000\nPour deux nuits, s'il vous plaît.\n",
    language: "fr",
  },
  {
    name: "a French chat message full of English URLs and mentions",
    format: "text",
    mode: "message",
    text: "@the_release_manager @build_and_deploy_team regarde " +
      "https://example.org/getting-started/install-the-latest-version-and-read-the-release-notes " +
      "merci beaucoup pour ton aide :thumbs_up: #release_notes_for_the_next_version",
    language: "fr",
  },
  {
    name: "Vietnamese HTML written in character references",
    format: "html",
    text:
      "<p>Xin ch&agrave;o c&aacute;c b&#7841;n, h&ocirc;m nay tr&#7901;i &#273;&#7865;p qu&aacute;! " +
      "Ch&uacute;ng ta &#273;i d&#7841;o c&ocirc;ng vi&ecirc;n nh&eacute;.</p>",
    language: "vi",
  },
  {
    name: "Japanese HTML written all in numeric references",
    format: "html",
    text: "<p>" + [..."今日はとても良い天気ですね。公園へ散歩に行きましょう。"]
      .map((char) => `&#${char.codePointAt(0)};`).join("") +
      "</p>",
    language: "ja",
  },
  {
    name: "HTML with no visible text",
    format: "html",
    text: "<script>var english = 'words';</script><img src=a.png>",
    language: "und",
  },
];

for (const { name, format, mode, text, language } of VISIBLE_TEXT_CASES) {
  Deno.test(`source auto detects ${name} from its visible text`, async () => {
    await withTranslationService(async (service) => {
      const response = await postTranslate(service, {
        target: language === "und" ? "fr" : language,
        texts: [text],
        format,
        mode,
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      assert.equal(body.results[0].detected_source, language);
      assert.equal(
        body.results[0].text,
        text,
        "detected as the target (or nothing to read): unchanged",
      );
    });
  });
}

Deno.test("Markdown nesting more than 32 lists or quotes on a line is refused with its line, on HTTP and the WebSocket", async () => {
  // One such line of 3,000 lists with a lazy line after it held the service for 46 s.
  const nested = (lists: number) => `# Notes\n\n${"- ".repeat(lists)}deep\nlazy line\n`;
  const runner = startOllamaStandIn();
  try {
    await withTranslationService(async (service) => {
      const request = (texts: string[], format = "markdown") => ({
        source: "en",
        target: "fr",
        format,
        mode: "document",
        options: { engine: "engine-one" },
        texts,
      });
      const refused = request(["Fine *text*.", nested(33)]);
      const http = await expectError(
        await postTranslate(service, refused),
        400,
        "invalid_request",
        "texts[1]",
      );
      assert.match(
        http.error.message,
        /^texts\[1\]: line 3 opens more than 32 lists or block quotes one inside another/,
      );
      assert.match(http.error.message, /send the item with format "text"/);
      // The WebSocket refuses the same frame alike and answers the next one.
      const [frame, next] = await askOverSocket(
        `${service.wsUrl}/v1/ws/translate?token=${service.token}`,
        [refused, request([nested(32)])],
      );
      assert.deepEqual(ErrorResponseSchema.parse(frame), http);
      assert.equal(
        TranslateResponseSchema.parse(next).results[0].text,
        `# ${MARKED} Notes\n\n${"- ".repeat(32)}${MARKED} deep\nlazy line\n`,
      );
      // A rule of dashes however long is not lists; as text, the refused item is translated.
      const rule = `Above\n\n${"- ".repeat(40)}-\n\nBelow\n`;
      const body = await expectBody(
        await postTranslate(service, request([rule])),
        200,
        TranslateResponseSchema,
      );
      assert.equal(
        body.results[0].text,
        `${MARKED} Above\n\n${"- ".repeat(40)}-\n\n${MARKED} Below\n`,
      );
      await expectBody(
        await postTranslate(service, request([nested(33)], "text")),
        200,
        TranslateResponseSchema,
      );
    }, {
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    });
  } finally {
    await runner.stop();
  }
});

Deno.test("emphasis nested 2,000 deep in one Markdown item is translated with its markers", async () => {
  // The cut walked nested syntax by recursion, deeper than the call stack: 500 internal_error.
  const item = "**".repeat(1999) + "word" + "**".repeat(1999);
  assert.equal(item.length, 8000);
  const text = await throughStandIn(item, { format: "markdown", mode: "document" });
  assert.equal(text, `${MARKED} ${item}`);
});

Deno.test("document mode keeps a blank line of a no-break space or a lone CR between paragraphs", async () => {
  // The answer's blank lines were read as readers see them, the source's as spaces and tabs
  // only: a paragraph holding a line of a no-break space came back without that line.
  const item = "Para one.\n\u00a0\nPara two?\r\rPara three.\r\n\u3000\r\nPara four.";
  const text = await throughStandIn(item, { mode: "document" });
  assert.equal(text, item.replace(/Para/g, "[translated] Para"));
});

Deno.test("message mode keeps shortcodes side by side and team mentions whole", async () => {
  // Only the first of `:thumbsup::skin-tone-2:` was kept: the engine was given the second; and
  // of `@octo-org/core-team` the engine was given `/core-team`.
  const item = "Nice :thumbsup::skin-tone-2: and :tada::tada::fire: for the launch, " +
    "@octo-org/core-team";
  const upperCase = (text: string) =>
    text.split(/(<\/?x\d+\/?>)/).map((part, i) => i % 2 ? part : part.toUpperCase()).join("");
  assert.equal(
    await throughStandIn(item, { mode: "message" }, upperCase),
    "NICE :thumbsup::skin-tone-2: AND :tada::tada::fire: FOR THE LAUNCH, @octo-org/core-team",
  );
});
