import assert from "node:assert/strict";
import { addSpan, MESSAGE_SPAN, messageSpans } from "../../../translation/formats/message_spans.ts";
import { seededJoins } from "../../support/seeded_random.ts";

function spansOf(text: string): string[] {
  return messageSpans(text).map(([start, end]) => text.slice(start, end));
}

const CASES = [
  {
    name: "a URL without its sentence full stop",
    text: "see https://x.org/a?b=1.",
    spans: ["https://x.org/a?b=1"],
  },
  {
    name: "a URL keeping its own closing bracket",
    text: "(https://w.org/Foo_(bar))",
    spans: ["https://w.org/Foo_(bar)"],
  },
  { name: "a www address", text: "go to www.example.com!", spans: ["www.example.com"] },
  {
    name: "an e-mail address",
    text: "write to bob.smith+x@mail.example.co.uk.",
    spans: ["bob.smith+x@mail.example.co.uk"],
  },
  {
    name: "a mention, not an e-mail's domain",
    text: "@ana_b: ask bob@x.io",
    spans: ["@ana_b", "bob@x.io"],
  },
  { name: "hashtags with letters", text: "#Friday #2026 #día", spans: ["#Friday", "#día"] },
  {
    name: "shortcodes, not clock times",
    text: "ok :+1: :tada: at 10:30:00",
    spans: [":+1:", ":tada:"],
  },
  {
    name: "a GitHub team's and an npm scope's mention whole",
    text: "ask @octo-org/core-team, install @types/node. @ana/",
    spans: ["@octo-org/core-team", "@types/node", "@ana"],
  },
  {
    name: "shortcodes side by side as one",
    text: "yes :thumbsup::skin-tone-2: :tada::tada:! std::vector:",
    spans: [":thumbsup::skin-tone-2:", ":tada::tada:"],
  },
  {
    name: "emoji with skin tone, ZWJ families and flags",
    text: "👍🏽 👨‍👩‍👧 🇫🇷 ❤️",
    spans: ["👍🏽", "👨‍👩‍👧", "🇫🇷", "❤️"],
  },
  { name: "nothing in plain words", text: "Just words, no links.", spans: [] },
  {
    name: "hashtags with hyphens, as Slack's channels have them",
    text: "see #dev-ops and #general-chat-2, not #-x",
    spans: ["#dev-ops", "#general-chat-2"],
  },
  {
    name: "bare domains in lower case, with a path, without the full stop",
    text: "see example.com and sub.example.co.uk/x. Not Hello.World, v1.2 or e.g. this",
    spans: ["example.com", "sub.example.co.uk/x"],
  },
  {
    name: "domains with a port, query or anchor, not a missing space before a two-letter word",
    text: "example.com:8080/admin api.example.com?x=1 example.com#top; done.so what, ok.it works",
    spans: ["example.com:8080/admin", "api.example.com?x=1", "example.com#top"],
  },
  {
    name: "Slack's links' addresses, dates and Discord's commands whole",
    text: "<https://x.com|this link> <mailto:a@b.com|write us> " +
      "<!date^1392734382^{date} at {time}|Feb 18> </deploy:123> ftp://x.org/a",
    spans: [
      "<https://x.com|",
      ">",
      "<mailto:a@b.com|",
      ">",
      "<!date^1392734382^{date} at {time}|Feb 18>",
      "</deploy:123>",
      "ftp://x.org/a",
    ],
  },
  {
    name: "Slack's and Discord's markup",
    text: "ask <@U024BE7LH> in <#C024BE7LR|general> <!here> <:party:123> by <t:1618953630:R>",
    spans: ["<@U024BE7LH>", "<#C024BE7LR|general>", "<!here>", "<:party:123>", "<t:1618953630:R>"],
  },
];

for (const { name, text, spans } of CASES) {
  Deno.test(`messageSpans protects ${name}`, () => {
    assert.deepEqual(spansOf(text), spans);
  });
}

/** The whole-text search the candidate scan replaced: the same pattern tried at every offset. */
function spansBySearch(text: string): [number, number][] {
  const pattern = new RegExp(MESSAGE_SPAN.source, "gu");
  const spans: [number, number][] = [];
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    pattern.lastIndex = addSpan(spans, match.index, match[0]);
  }
  return spans;
}

const PIECES = [
  "http://",
  "https://",
  "www.",
  "x.org",
  "/a?b=1",
  "(",
  ")",
  ".",
  ",",
  "!",
  "@",
  "bob",
  "/x-y",
  "ana_b",
  "#",
  "día",
  "2026",
  ":",
  "tada",
  "::",
  "+1",
  "10:30",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "👍",
  "🏽",
  "\u200D",
  "🇫",
  "🇷",
  "❤",
  "\uFE0F",
  "1",
  "\u20E3",
  "*",
  "&",
  "_",
  "-",
  "%",
  "é",
  "𝐚",
  "\uD83D",
  "\uDE00",
  "©",
  "™",
  "日本",
  '"',
  "<",
  "<@U1>",
  "<#C1|x y>",
  "h",
  "w",
  "a.io",
  "b.c",
  "d.so",
  "x.so/p",
  ":80",
  "?q",
  "#t",
  "ftp://",
  "<https://a|b c>",
  "<!x y>",
  "</a b:1>",
  ".com",
  "x-y.de/p.",
  "Q.fr",
  "-",
  "#a-b",
  "ww",
  "ÿ",
  "٣",
  "`",
  "```",
  "mailto:",
  ":-1:",
  "了",
  "。",
  "@",
  "t@x.io",
  "邮件",
  "🏴\u{E0067}\u{E007F}",
];

Deno.test("messageSpans finds what the whole-text search found, on 20,000 generated messages", () => {
  for (const text of seededJoins(PIECES, 20_000, 11)) {
    assert.deepEqual(messageSpans(text), spansBySearch(text), JSON.stringify(text));
  }
});

Deno.test("messageSpans finds an emoji made of any code point of planes 0 and 1", () => {
  for (let code = 0; code < 0x20000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    const text = `a ${char}${char}\u200D${char}\uFE0F b`;
    assert.deepEqual(messageSpans(text), spansBySearch(text), `U+${code.toString(16)}`);
  }
});
