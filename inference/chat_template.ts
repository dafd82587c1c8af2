/**
 * What tolk takes from a model's chat template (node-llama-cpp's chat wrappers): the history to
 * render, the segments left out of answers, and the end-of-turn triggers.
 */
import type { ChatHistoryItem, ChatWrapper, LlamaModel, LlamaText } from "node-llama-cpp";
import type { ChatTurn } from "./generation.ts";
import type { HiddenSegment } from "./hidden_segments.ts";

/** The request's turns as node-llama-cpp's chat history, with an open assistant turn. */
export function toHistory(turns: readonly ChatTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = turns.map((turn) =>
    turn.role === "assistant"
      ? { type: "model", response: [turn.text] }
      : turn.role === "system"
      ? { type: "system", text: turn.text }
      : { type: "user", text: turn.text }
  );
  // An empty model turn makes the wrapper open a new assistant message to generate into.
  history.push({ type: "model", response: [] });
  return history;
}

/** The chat template's thought (chain of thought) and comment segments as text markers. */
export function hiddenSegmentsOf(wrapper: ChatWrapper): HiddenSegment[] {
  const { thought, comment } = wrapper.settings.segments ?? {};
  const text = (value: string | LlamaText | undefined) =>
    value === undefined ? "" : typeof value === "string" ? value : value.toString();
  const segments: HiddenSegment[] = [];
  if (thought?.suffix) {
    const openedOnStart = typeof thought.prefix === "object" && "type" in thought.prefix;
    segments.push({
      open: openedOnStart ? "" : text(thought.prefix as string | LlamaText),
      close: text(thought.suffix),
      openAtStart: openedOnStart || thought.openOnResponseStart === true,
    });
  }
  if (comment?.suffix) segments.push({ open: text(comment.prefix), close: text(comment.suffix) });
  return segments;
}

/**
 * The chat template's end-of-turn triggers: plain text ones are matched on the text, the others
 * (special tokens such as EOS or `<|im_end|>`) on the tokens they stand for.
 */
export function splitTriggers(
  triggers: readonly LlamaText[],
  vocabulary: LlamaModel,
): { stopTokenSequences: number[][]; stopTexts: string[] } {
  const stopTokenSequences: number[][] = [];
  const stopTexts: string[] = [];
  for (const trigger of triggers) {
    if (trigger.values.every((value) => typeof value === "string")) {
      const text = trigger.values.join("");
      if (text) stopTexts.push(text);
    } else {
      const tokens = trigger.tokenize(vocabulary.tokenizer);
      if (tokens.length) stopTokenSequences.push(tokens);
    }
  }
  return { stopTokenSequences, stopTexts };
}
