import assert from "node:assert/strict";
import {
  ChatMLChatWrapper,
  type ChatWrapper,
  JinjaTemplateChatWrapper,
  Llama3_1ChatWrapper,
} from "node-llama-cpp";
import { renderChat } from "../../inference/chat_template.ts";
import type { ChatTurn } from "../../inference/generation.ts";

/** The ChatML template as a GGUF file carries it (Qwen's, without tools). */
const CHATML_JINJA = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + " +
  "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const WRAPPERS: Array<[string, () => ChatWrapper]> = [
  ["ChatML", () => new ChatMLChatWrapper()],
  ["Llama 3.1", () => new Llama3_1ChatWrapper()],
  ["a Jinja ChatML template", () => new JinjaTemplateChatWrapper({ template: CHATML_JINJA })],
];

const HI: ChatTurn = { role: "user", text: "hi" };

/** Conversations with an empty turn, and the same without it. */
const EMPTY_TURNS: Array<[string, ChatTurn[], ChatTurn[]]> = [
  ["a first user turn", [{ role: "user", text: "" }, HI], [HI]],
  ["a last user turn", [HI, { role: "user", text: "" }], [HI]],
  ["a system turn", [{ role: "system", text: "" }, HI], [HI]],
  ["an assistant turn", [HI, { role: "assistant", text: "" }, HI], [HI, HI]],
];

function text(wrapper: ChatWrapper, turns: ChatTurn[]): string {
  return renderChat(wrapper, turns).contextText.toString();
}

for (const [name, make] of WRAPPERS) {
  for (const [what, withEmpty, without] of EMPTY_TURNS) {
    Deno.test(`renderChat with ${name} keeps ${what} with no text, and nothing in its place`, () => {
      const kept = text(make(), withEmpty);
      assert.ok(!kept.includes("tolk-empty-turn"), kept);
      assert.ok(kept.length > text(make(), without).length, kept);
    });
  }
}

Deno.test("renderChat with ChatML renders an empty user turn (after BOS) as llama-server's template does", () => {
  assert.equal(
    text(new ChatMLChatWrapper(), [{ role: "user", text: "" }, HI]),
    "BOS<|im_start|>user\n<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
  );
});
