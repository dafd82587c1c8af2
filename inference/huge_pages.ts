/**
 * Weights on transparent huge pages, and the KV cache's cleared pages given back (Linux).
 *
 * A decode step reads every weight once, so for a 100 MB model it walks 25,000 4 KiB pages per
 * token, and the TLB misses of that walk cost as much as a fifth of the step. tolk reads the model
 * into anonymous memory (a mapped file kills the daemon when it is truncated, README), and with the
 * kernel's usual THP setting `madvise` anonymous memory gets 4 KiB pages unless someone asks.
 * Measured on the bench model, one thread: 5.5–6.7 ms per token on 4 KiB pages, 4.2–4.3 ms on huge
 * pages, 4.5–4.6 ms for llama-server's default of a mapped file (BENCHMARKS.md, "Inference daemon
 * against llama-server").
 *
 * llama.cpp allocates its weight buffer itself, so the regions to advise are found afterwards:
 * the anonymous read-write mappings that appeared in `/proc/self/maps` during the load, each
 * advised `MADV_HUGEPAGE` (khugepaged keeps it so) and collapsed at once with `MADV_COLLAPSE`
 * (Linux 6.1). Only fully resident regions are touched: collapsing a half-used one would make its
 * holes resident.
 *
 * llama.cpp fills a new context's KV cache with zeros, which makes all of it resident at once: one
 * stream per sequence (kv_layout.ts) would cost slots × context cells of idle memory. Its
 * all-zero pages are given back (`MADV_DONTNEED`: a private anonymous page reads as zeros again
 * afterwards, so nothing changes but the resident size), and a stream takes memory as it fills.
 */

const MADV_DONTNEED = 4;
const MADV_HUGEPAGE = 14;
const MADV_COLLAPSE = 25;
/** Tries of a collapse that fails (the kernel's failures are mostly transient). */
const COLLAPSE_ATTEMPTS = 3;
const PAGE = 4096n;
const HUGE_PAGE = 2n * 1024n * 1024n;
/** Regions smaller than this hold no huge page worth the call (two 2 MiB pages). */
const SMALLEST_REGION = 2n * HUGE_PAGE;
/**
 * Only regions larger than a glibc arena (64 MiB) are scanned for zero pages: a buffer that size is
 * one allocation of the caller's (the KV cache), never memory another thread may be filling.
 */
const SMALLEST_ZEROED = 64n * 1024n * 1024n + PAGE;

const LIBC_SYMBOLS = {
  open: { parameters: ["buffer", "i32"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  madvise: { parameters: ["u64", "usize", "i32"], result: "i32" },
  mincore: { parameters: ["u64", "usize", "buffer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** An address range `[start, end)`. */
export interface Range {
  start: bigint;
  end: bigint;
}

/** What {@link HugePages.adviseSince} did. */
export interface HugePagesReport {
  /** Bytes advised and collapsed into huge pages. */
  collapsed: number;
  /** Bytes advised whose collapse the kernel refused (khugepaged may still do it later). */
  advised: number;
}

/**
 * The anonymous read-write mappings of a `/proc/<pid>/maps` text (no file, no `[heap]`/`[stack]`).
 */
export function anonymousRanges(maps: string): Range[] {
  const ranges: Range[] = [];
  for (const line of maps.split("\n")) {
    const [span, perms, , , inode, path] = line.split(/\s+/);
    if (!span || !perms?.startsWith("rw") || inode !== "0" || path) continue;
    const [start, end] = span.split("-").map((hex) => BigInt(`0x${hex}`));
    ranges.push({ start, end });
  }
  return ranges;
}

/**
 * The 2 MiB-aligned parts of `after`'s ranges that lie in none of `before`'s, of at least
 * {@link SMALLEST_REGION}: memory mapped between two snapshots, as huge pages can hold it.
 */
export function newHugeRanges(before: readonly Range[], after: readonly Range[]): Range[] {
  return newRanges(before, after, HUGE_PAGE, SMALLEST_REGION);
}

/** The `align`-aligned parts of `after`'s ranges in none of `before`'s, of at least `smallest`. */
function newRanges(
  before: readonly Range[],
  after: readonly Range[],
  align: bigint,
  smallest: bigint,
): Range[] {
  const fresh: Range[] = [];
  for (const range of after) {
    let pieces = [range];
    for (const old of before) {
      pieces = pieces.flatMap((piece) =>
        old.end <= piece.start || old.start >= piece.end ? [piece] : [
          ...(old.start > piece.start ? [{ start: piece.start, end: old.start }] : []),
          ...(old.end < piece.end ? [{ start: old.end, end: piece.end }] : []),
        ]
      );
    }
    for (const piece of pieces) {
      const start = (piece.start + align - 1n) / align * align;
      const end = piece.end / align * align;
      if (end - start >= smallest) fresh.push({ start, end });
    }
  }
  return fresh;
}

/** Puts memory that llama.cpp allocates on huge pages; on other systems than Linux, does nothing. */
export class HugePages {
  readonly #libc = Deno.build.os === "linux"
    ? Deno.dlopen("libc.so.6", LIBC_SYMBOLS).symbols
    : undefined;
  readonly #decoder = new TextDecoder();

  /** The anonymous mappings now, for {@link HugePages.adviseSince} after an allocation. */
  snapshot(): Range[] {
    return this.#libc ? anonymousRanges(this.#readMaps()) : [];
  }

  /**
   * Advises and collapses the fully resident anonymous memory mapped since `before` (what
   * llama.cpp allocated and filled in between). Never throws: a kernel without THP leaves the
   * memory on 4 KiB pages, as it was.
   */
  adviseSince(before: readonly Range[]): HugePagesReport {
    const report = { collapsed: 0, advised: 0 };
    const libc = this.#libc;
    if (!libc) return report;
    for (const { start, end } of newHugeRanges(before, anonymousRanges(this.#readMaps()))) {
      const size = end - start;
      if (!this.#resident(start, size)) continue;
      if (libc.madvise(start, size, MADV_HUGEPAGE) !== 0) continue;
      if (this.#collapse(start, size)) report.collapsed += Number(size);
      else report.advised += Number(size);
    }
    return report;
  }

  /**
   * Collapses a region into huge pages. The kernel fails a collapse for a moment when it cannot
   * get a free 2 MiB page or a lock at once (EAGAIN, "transient failure"), so it is asked up to
   * three times; pages collapsed by an earlier try are not redone.
   */
  #collapse(start: bigint, size: bigint): boolean {
    for (let attempt = 0; attempt < COLLAPSE_ATTEMPTS; attempt++) {
      if (this.#libc!.madvise(start, size, MADV_COLLAPSE) === 0) return true;
    }
    return false;
  }

  /**
   * Gives back the all-zero pages of the large anonymous memory mapped since `before` (llama.cpp's
   * cleared KV cache). Call it before anything computes in that memory.
   *
   * @returns the bytes given back.
   */
  releaseZeroPagesSince(before: readonly Range[]): number {
    const libc = this.#libc;
    if (!libc) return 0;
    let released = 0;
    for (const { start, end } of newRanges(before, this.snapshot(), PAGE, SMALLEST_ZEROED)) {
      const words = new Int32Array(
        Deno.UnsafePointerView.getArrayBuffer(
          Deno.UnsafePointer.create(start)!,
          Number(end - start),
        ),
      );
      const perPage = Number(PAGE) / 4;
      let run = -1; // first page of the current run of zero pages
      for (let page = 0; page * perPage <= words.length; page++) {
        if (page * perPage < words.length && isZero(words, page * perPage, perPage)) {
          if (run < 0) run = page;
          continue;
        }
        if (run < 0) continue;
        const size = BigInt(page - run) * PAGE;
        if (libc.madvise(start + BigInt(run) * PAGE, size, MADV_DONTNEED) === 0) {
          released += Number(size);
        }
        run = -1;
      }
    }
    return released;
  }

  /** Whether every page of the range is in memory (`mincore`). */
  #resident(start: bigint, size: bigint): boolean {
    const pages = new Uint8Array(Number(size / PAGE));
    if (this.#libc!.mincore(start, size, pages) !== 0) return false;
    return pages.every((flags) => flags & 1);
  }

  #readMaps(): string {
    const libc = this.#libc!;
    const fd = libc.open(new TextEncoder().encode("/proc/self/maps\0"), 0);
    if (fd < 0) return "";
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(65536);
    for (let size = Number(libc.read(fd, buffer, 65536n)); size > 0;) {
      chunks.push(buffer.slice(0, size));
      size = Number(libc.read(fd, buffer, 65536n));
    }
    libc.close(fd);
    return chunks.map((chunk) => this.#decoder.decode(chunk, { stream: true })).join("") +
      this.#decoder.decode();
  }
}

function isZero(words: Int32Array, from: number, count: number): boolean {
  for (let i = from; i < from + count; i++) if (words[i] !== 0) return false;
  return true;
}
