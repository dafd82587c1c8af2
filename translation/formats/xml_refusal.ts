/**
 * Which attributes of an XML start tag say its element is not to be translated, in the
 * vocabularies `format: "xml"` meets (XLIFF, DITA, DocBook, ITS, Android): such an element is
 * kept whole, never sent (xml.ts).
 *
 * Pure: no I/O.
 */

/**
 * An attribute saying its element is not to be translated: `translate="no"` (XLIFF 1.2's
 * trans-unit, DITA, DocBook), with a prefix too (ITS's `its:translate="no"`), Android's
 * `translatable="false"` in strings.xml, and XLIFF 1.2's `<mrk mtype="protected">`.
 */
const REFUSING = /^(?:[\p{L}_][\p{L}\p{N}_.-]*:)?translate$|^translatable$|^mtype$/u;
const REFUSED_VALUE: Readonly<Record<string, string>> = {
  translate: "no",
  translatable: "false",
  mtype: "protected",
};
/** An attribute (`name = "value"`) at a place in a start tag, after white space. */
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/** Whether a start tag's attributes refuse translation (see {@link REFUSING}). */
export function refusesTranslation(source: string, from: number, end: number): boolean {
  ATTRIBUTE.lastIndex = from;
  for (;;) {
    const found = ATTRIBUTE.exec(source);
    if (!found || ATTRIBUTE.lastIndex > end) return false;
    if (!REFUSING.test(found[1])) continue;
    const name = found[1].slice(found[1].indexOf(":") + 1);
    if ((found[2] ?? found[3]).trim() === REFUSED_VALUE[name]) return true;
  }
}
