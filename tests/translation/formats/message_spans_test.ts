import assert from "node:assert/strict";
import { messageSpans } from "../../../translation/formats/message_spans.ts";

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
    name: "emoji with skin tone, ZWJ families and flags",
    text: "👍🏽 👨‍👩‍👧 🇫🇷 ❤️",
    spans: ["👍🏽", "👨‍👩‍👧", "🇫🇷", "❤️"],
  },
  { name: "nothing in plain words", text: "Just words, no links.", spans: [] },
];

for (const { name, text, spans } of CASES) {
  Deno.test(`messageSpans protects ${name}`, () => {
    assert.deepEqual(spansOf(text), spans);
  });
}
