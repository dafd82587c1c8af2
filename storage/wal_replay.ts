/**
 * A database file's bytes with its write-ahead log applied: what a reader of the database sees,
 * for the one case SQLite cannot read itself, a read-only directory holding a `-wal` but no
 * `-shm` (a copy or backup that left out the shared-memory index, which SQLite rebuilds from
 * the log whenever it can write one). The log is read as SQLite's own recovery reads it
 * (https://sqlite.org/fileformat2.html#walformat): a 32-byte header, then frames of a 24-byte
 * header and one page; a frame counts while its salts are the header's and the running checksum
 * holds, and the pages of the frames up to the last valid commit frame are the database.
 * Pure: no I/O.
 */

const HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const WAL_VERSION = 3007000;

/** `image` (a database file's bytes) with the committed frames of `wal` (its log) applied. */
export function withWalApplied(image: Uint8Array, wal: Uint8Array): Uint8Array {
  if (wal.length < HEADER_BYTES) return image;
  const log = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = log.getUint32(0);
  const pageSize = log.getUint32(8);
  if (
    (magic !== 0x377f0682 && magic !== 0x377f0683) || log.getUint32(4) !== WAL_VERSION ||
    pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0
  ) return image;
  // The magic's last bit says in which byte order the checksum reads the words.
  const littleEndian = (magic & 1) === 0;
  let sums = checksum(log, 0, 24, [0, 0], littleEndian);
  if (sums[0] !== log.getUint32(24) || sums[1] !== log.getUint32(28)) return image;

  const salts = [log.getUint32(16), log.getUint32(20)];
  const pending = new Map<number, number>();
  const committed = new Map<number, number>();
  let pages = 0;
  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  for (let at = HEADER_BYTES; at + frameBytes <= wal.length; at += frameBytes) {
    if (log.getUint32(at + 8) !== salts[0] || log.getUint32(at + 12) !== salts[1]) break;
    sums = checksum(log, at, at + 8, sums, littleEndian);
    sums = checksum(log, at + FRAME_HEADER_BYTES, at + frameBytes, sums, littleEndian);
    if (sums[0] !== log.getUint32(at + 16) || sums[1] !== log.getUint32(at + 20)) break;
    pending.set(log.getUint32(at), at + FRAME_HEADER_BYTES);
    const commitPages = log.getUint32(at + 4);
    if (commitPages > 0) {
      for (const [page, offset] of pending) committed.set(page, offset);
      pending.clear();
      pages = commitPages;
    }
  }
  if (pages === 0) return image;
  const database = new Uint8Array(pages * pageSize);
  database.set(image.subarray(0, database.length));
  for (const [page, offset] of committed) {
    if (page >= 1 && page <= pages) {
      database.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize);
    }
  }
  return database;
}

/** SQLite's WAL checksum of the 32-bit words in [from, to), continued from `sums`. */
function checksum(
  view: DataView,
  from: number,
  to: number,
  sums: [number, number],
  littleEndian: boolean,
): [number, number] {
  let [s0, s1] = sums;
  for (let at = from; at < to; at += 8) {
    s0 = (s0 + view.getUint32(at, littleEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(at + 4, littleEndian) + s0) >>> 0;
  }
  return [s0, s1];
}
