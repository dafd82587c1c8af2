/**
 * What tolk takes from a model's chat template (node-llama-cpp's chat wrappers): the history to
 * render, the segments left out of answers, and the end-of-turn triggers.
 */
import type {
  ChatHistoryItem,
  ChatWrapper,
  ChatWrapperGeneratedContextState,
  LlamaModel,
  LlamaText,
} from "node-llama-cpp";
import type { ChatTurn } from "./generation.ts";
import type { HiddenSegment } from "./hidden_segments.ts";

/**
 * Stands in for the text of an empty turn while a chat wrapper renders: node-llama-cpp's wrappers
 * leave a turn with no text out, where llama-server renders the template's empty turn
 * (`<|im_start|>user\n<|im_end|>`). Random per process, so no request can spell it.
 */
const EMPTY_TURN = `tolk-empty-turn-${crypto.randomUUID()}`;

/**
 * The prompt of a conversation in the model's chat template, with an open assistant turn to
 * generate into, and the template's end-of-turn triggers. Empty turns are kept, as llama-server
 * keeps them.
 *
 * @throws {Error} when the wrapper changed an empty turn's stand-in (a template that rewrites
 *   text), rather than send it to the model.
 */
export function renderChat(
  wrapper: ChatWrapper,
  turns: readonly ChatTurn[],
): ChatWrapperGeneratedContextState {
  const state = wrapper.generateContextState({ chatHistory: toHistory(turns) });
  if (!turns.some((turn) => turn.text === "")) return state;
  const contextText = state.contextText.mapValues((value) =>
    typeof value === "string" ? value.replaceAll(EMPTY_TURN, "") : value
  );
  if (contextText.toString().includes(EMPTY_TURN.slice(0, 16))) {
    throw new Error(`Cannot render an empty turn with the ${wrapper.wrapperName} chat template`);
  }
  return { ...state, contextText };
}

/** The request's turns as node-llama-cpp's chat history, with an open assistant turn. */
export function toHistory(turns: readonly ChatTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = turns.map(({ role, text }) => {
    const kept = text === "" ? EMPTY_TURN : text;
    return role === "assistant"
      ? { type: "model", response: [kept] }
      : role === "system"
      ? { type: "system", text: kept }
      : { type: "user", text: kept };
  });
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
