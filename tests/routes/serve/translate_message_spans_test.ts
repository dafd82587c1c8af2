/**
 * Chat messages in `message` mode over HTTP: what a chat app shows as code, an address or an
 * emoji comes back byte for byte, and every word a reader sees reaches the engine.
 */
import assert from "node:assert/strict";
import { translateUpperCased } from "../../support/format_requests.ts";

async function translateMessage(message: string) {
  const { texts, sent } = await translateUpperCased([message], { mode: "message" });
  return { text: texts[0], sent };
}

Deno.test("message mode keeps inline code and code blocks as written", async () => {
  const message = "Run `npm install --save left-pad` then:\n```\ndeno task dev\n```\nand wait";
  const { text, sent } = await translateMessage(message);
  assert.deepEqual(sent, ["Run <x1/> then:<x2/>and wait"]);
  assert.equal(
    text,
    "RUN `npm install --save left-pad` THEN:\n```\ndeno task dev\n```\nAND WAIT",
  );
});

Deno.test("message mode keeps the :-1: shortcode", async () => {
  const { text, sent } = await translateMessage("Sorry :-1: from me, :+1: from her");
  assert.deepEqual(sent, ["Sorry <x1/> from me, <x2/> from her"]);
  assert.equal(text, "SORRY :-1: FROM ME, :+1: FROM HER");
});

Deno.test("message mode keeps a mailto: address whole", async () => {
  const { text, sent } = await translateMessage("Write mailto:bob@example.com today.");
  assert.deepEqual(sent, ["Write <x1/> today."]);
  assert.equal(text, "WRITE mailto:bob@example.com TODAY.");
});

Deno.test("message mode translates the label of a Slack link and keeps its address", async () => {
  const message = "See <https://example.com/q3|the quarterly report> and <#C024BE7LR|general>.";
  const { text, sent } = await translateMessage(message);
  assert.deepEqual(sent, ["See <x1/>the quarterly report<x2/> and <x3/>."]);
  assert.equal(
    text,
    "SEE <https://example.com/q3|THE QUARTERLY REPORT> AND <#C024BE7LR|general>.",
  );
});

Deno.test("message mode ends a URL where CJK text runs on without a space", async () => {
  const message =
    "请访问https://example.com/docs了解更多。详见https://zh.wikipedia.org/wiki/北京，谢谢";
  const { text, sent } = await translateMessage(message);
  assert.deepEqual(sent, ["请访问<x1/>了解更多。详见<x2/>，谢谢"]);
  assert.equal(text, message);
});

Deno.test("message mode keeps an e-mail address glued to CJK text, and not the text around it", async () => {
  // An address written in CJK itself (사용자@예시.한국) has no such edge: a space ends it.
  const message =
    "请发邮件test.user@example.com谢谢。メールはinfo@example.jpまで、또는 사용자@예시.한국 으로";
  const { text, sent } = await translateMessage(message);
  assert.deepEqual(sent, ["请发邮件<x1/>谢谢。メールは<x2/>まで、또는 <x3/> 으로"]);
  assert.equal(text, message);
});

Deno.test("message mode keeps a subdivision flag's tag sequence with its flag", async () => {
  const scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
  const { text, sent } = await translateMessage(`Go ${scotland} team`);
  assert.deepEqual(sent, ["Go <x1/> team"]);
  assert.equal(text, `GO ${scotland} TEAM`);
});

Deno.test("message mode keeps a double-backtick code span holding a backtick", async () => {
  const { text, sent } = await translateMessage("Type `` a `b` c `` here");
  assert.deepEqual(sent, ["Type <x1/> here"]);
  assert.equal(text, "TYPE `` a `b` c `` HERE");
});
