/**
 * The check format_files.ts runs on an XLIFF file instead of a byte-for-byte round trip: an
 * XLIFF file gains targets by design, so what it must keep is everything else. Read with plain
 * expressions of its own (not xliff.ts's reading): with every target and every `state`,
 * `target-language` and `trgLang` attribute taken out, the output is the input byte for byte (so
 * every source is kept); each unit the output changed has one target (outside `<alt-trans>`)
 * that `matches` its source; and each unit it left alone was one to leave (a blank source, an
 * approved or final translation, or a file that marks something `translate="no"`).
 */
import type { XliffRoot } from "../translation/formats/xml_root.ts";

/**
 * The first problem of `output` as the answer to the XLIFF file `input` (undefined: none).
 * `matches` compares a unit's source content with its target content.
 */
export function xliffTargetsProblem(
  input: string,
  output: string,
  root: XliffRoot,
  matches: (source: string, target: string) => boolean,
): string | undefined {
  const p = root.prefix.replaceAll(".", "\\.");
  const target = new RegExp(
    `(?:\\r?\\n[ \\t]*)?<${p}target(?:\\s[^>]*?)?(?:/>|>[^]*?</${p}target>)`,
    "g",
  );
  const strip = (text: string) =>
    text.replace(target, "").replace(
      /\s(?:state|target-language|trgLang)\s*=\s*(?:"[^"]*"|'[^']*')/g,
      "",
    );
  if (strip(output) !== strip(input)) return "changed outside its targets";
  const unit = root.version === 1 ? `${p}trans-unit` : `${p}segment`;
  const units = (text: string) =>
    text.match(new RegExp(`<${unit}[\\s>][^]*?</${unit}>`, "g")) ?? [];
  const before = units(input);
  const after = units(output);
  const refusing = /\stranslate\s*=\s*["']no["']/.test(input);
  for (const [index, written] of after.entries()) {
    const source = new RegExp(`<${p}source(?:\\s[^>]*)?>([^]*?)</${p}source>`).exec(written)?.[1];
    if (written === before[index]) {
      const kept = source === undefined || source.trim() === "" || refusing ||
        /(?:approved\s*=\s*["']yes|state\s*=\s*["'](?:final|signed-off|reviewed))["']/.test(
          written,
        );
      if (!kept) return `unit ${index + 1} got no target`;
      continue;
    }
    const own = written.replace(new RegExp(`<${p}alt-trans[\\s>][^]*?</${p}alt-trans>`, "g"), "");
    const targets = [...own.matchAll(target)];
    if (targets.length !== 1 || source === undefined) return `unit ${index + 1}: not one target`;
    const content = /^<[^>]*>([^]*)<\/[^>]*>$/.exec(targets[0][0].trim())?.[1] ?? "";
    if (!matches(source, content)) return `unit ${index + 1}: its target does not match its source`;
  }
  return undefined;
}
