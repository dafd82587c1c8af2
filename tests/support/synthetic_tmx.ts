/** A TMX memory of many units, as a CAT tool exports it, for import tests and the bench. */

/** `count` en→de units: unit i is "Sentence number i about the weather today". */
export function syntheticTmx(count: number): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en" ' +
    'datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="x" creationtool="x" ' +
    'creationtoolversion="1"/><body>\n';
  const body = Array.from(
    { length: count },
    (_, i) =>
      `<tu><tuv xml:lang="en"><seg>${syntheticSource(i)}</seg></tuv>` +
      `<tuv xml:lang="de"><seg>${syntheticTarget(i)}</seg></tuv></tu>`,
  );
  return `${head}${body.join("\n")}\n</body></tmx>`;
}

export function syntheticSource(unit: number): string {
  return `Sentence number ${unit} about the weather today`;
}

export function syntheticTarget(unit: number): string {
  return `Satz Nummer ${unit} über das Wetter heute`;
}
