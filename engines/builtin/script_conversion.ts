/**
 * Simplified ↔ Traditional Chinese as a script conversion with OpenCC's maintained tables,
 * never a model job: the text is the same language, only the characters change.
 */
import OpenCC from "opencc-js";

/** The two Chinese scripts of the service. */
export type ChineseScript = "zh-Hans" | "zh-Hant";

type Convert = (text: string) => string;
const converters = new Map<ChineseScript, Convert>();

/** True when translating `source` into `target` is only a change of Chinese script. */
export function isChineseScriptChange(source: string, target: string): boolean {
  return source !== target && isChineseScript(source) && isChineseScript(target);
}

/** True for `zh-Hans` and `zh-Hant`. */
export function isChineseScript(code: string): code is ChineseScript {
  return code === "zh-Hans" || code === "zh-Hant";
}

/**
 * Rewrites Chinese text in the `target` script; characters already in it are left alone.
 *
 * @example
 * ```ts
 * toChineseScript("汉语", "zh-Hant"); // "漢語"
 * ```
 */
export function toChineseScript(text: string, target: ChineseScript): string {
  let convert = converters.get(target);
  if (!convert) {
    // Taiwan character standard without phrase substitution: a script change, not localisation.
    convert = target === "zh-Hant"
      ? OpenCC.Converter({ from: "cn", to: "tw" })
      : OpenCC.Converter({ from: "t", to: "cn" });
    converters.set(target, convert);
  }
  return convert(text);
}
