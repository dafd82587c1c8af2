/**
 * micromark-extension-math's inline math with Pandoc's rule for single dollars
 * (markdown_math_dollars.ts): the extension's tokenizer runs as it is, watched code by code, and
 * fails where the rule says the dollars are text (an opening `$` before white space, a closing
 * one after white space or before a digit).
 */
import type {
  Code,
  Construct,
  FullNormalizedExtension,
  State,
  TokenizeContext,
  Tokenizer,
} from "micromark-util-types";
import { closesMath, opensMath } from "./markdown_math_dollars.ts";

const DOLLAR = 36;

/** Puts the rule on the inline math construct of one parser's constructs. */
export function usePandocMath(constructs: FullNormalizedExtension): void {
  const listed = constructs.text[DOLLAR];
  const all = Array.isArray(listed) ? listed : listed ? [listed] : [];
  let replaced = 0;
  constructs.text[DOLLAR] = all.map((construct): Construct => {
    if (construct.name !== "mathText") return construct;
    replaced++;
    return { ...construct, tokenize: withPandocRule(construct.tokenize) };
  });
  if (replaced !== 1) throw new Error("micromark's inline math construct was not found");
}

/** `tokenize` failing where the rule says its dollars are no math. */
function withPandocRule(tokenize: Tokenizer): Tokenizer {
  return function tokenizeMath(this: TokenizeContext, effects, ok, nok) {
    let opening = 0;
    let opened = false;
    let run = 0;
    let last: Code = null;
    let beforeRun: Code = null;
    let done = false;
    const closed: State = (code) => {
      done = true;
      return closesMath(opening, beforeRun, code) ? ok(code) : nok(code);
    };
    const failed: State = (code) => {
      done = true;
      return nok(code);
    };
    const watch = (state: State): State => (code) => {
      if (!opened) {
        if (code === DOLLAR) opening++;
        else {
          opened = true;
          if (!opensMath(opening, code)) return failed(code);
        }
      } else if (code === DOLLAR) {
        if (run === 0) beforeRun = last;
        run++;
      } else run = 0;
      last = code;
      const next = state(code);
      return done || next === undefined ? next : watch(next);
    };
    return watch(tokenize.call(this, effects, closed, failed));
  };
}
