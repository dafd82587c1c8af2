/**
 * The opaque `next_cursor` of the paged lists (history, memory): the row position the next page
 * continues after, tagged with the list it belongs to, so a cursor of one list is refused by
 * another.
 */

/** The cursor that continues after row `position` of the list tagged `list`. */
export function encodeCursor(list: string, position: number): string {
  return btoa(`${list}${position}`).replace(/=+$/, "");
}

/**
 * The row position a cursor of the list tagged `list` continues after; undefined for none.
 *
 * @throws {RangeError} for a cursor this list never made.
 */
export function decodeCursor(list: string, cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  let text = "";
  try {
    text = atob(cursor);
  } catch {
    // falls through to the RangeError below
  }
  if (text.startsWith(list) && /^\d{1,15}$/.test(text.slice(list.length))) {
    return Number(text.slice(list.length));
  }
  throw new RangeError("cursor is not a next_cursor this service returned");
}
