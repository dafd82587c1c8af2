/** Where two strings first differ (the shorter one's length when one starts the other). */
export function firstDifference(a: string, b: string): number {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return at;
}
