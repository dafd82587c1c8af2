import assert from "node:assert/strict";
import {
  anonymousRanges,
  HugePages,
  newHugeRanges,
  type Range,
} from "../../inference/huge_pages.ts";

const MiB = 1024n * 1024n;
const range = (startMiB: number, endMiB: number): Range => ({
  start: BigInt(startMiB) * MiB,
  end: BigInt(endMiB) * MiB,
});

Deno.test("anonymousRanges keeps anonymous read-write mappings only", () => {
  const maps = [
    "7f0000000000-7f0000800000 rw-p 00000000 00:00 0 ",
    "7f0000800000-7f0001000000 ---p 00000000 00:00 0 ",
    "7f0001000000-7f0001800000 r--s 00000000 fe:00 1234 /models/a.gguf",
    "55d000000000-55d000200000 rw-p 00000000 00:00 0 [heap]",
    "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]",
  ].join("\n");
  assert.deepEqual(anonymousRanges(maps), [{ start: 0x7f0000000000n, end: 0x7f0000800000n }]);
});

const NEW_RANGE_CASES: Array<{ name: string; before: Range[]; after: Range[]; fresh: Range[] }> = [
  {
    name: "a new region, trimmed to 2 MiB boundaries",
    before: [],
    after: [{ start: 3n * MiB / 2n, end: 103n * MiB + 5n }],
    fresh: [range(2, 102)],
  },
  {
    name: "a region that grew onto an old one: only the new part",
    before: [range(0, 8)],
    after: [range(0, 108)],
    fresh: [range(8, 108)],
  },
  {
    name: "an unchanged region: nothing",
    before: [range(0, 100)],
    after: [range(0, 100)],
    fresh: [],
  },
  { name: "less than two huge pages: nothing", before: [], after: [range(10, 13)], fresh: [] },
  {
    name: "a region split around an old one",
    before: [range(10, 12)],
    after: [range(0, 20)],
    fresh: [range(0, 10), range(12, 20)],
  },
];

for (const { name, before, after, fresh } of NEW_RANGE_CASES) {
  Deno.test(`newHugeRanges: ${name}`, () => {
    assert.deepEqual(newHugeRanges(before, after), fresh);
  });
}

const libc = Deno.dlopen("libc.so.6", {
  mmap: { parameters: ["u64", "usize", "i32", "i32", "i32", "i64"], result: "pointer" },
  mprotect: { parameters: ["pointer", "usize", "i32"], result: "i32" },
  munmap: { parameters: ["pointer", "usize"], result: "i32" },
});
const PROT_NONE = 0;
const PROT_READ_WRITE = 3;
const MAP_PRIVATE_ANONYMOUS = 0x22;
const thpOff = Deno.build.os !== "linux" ||
  Deno.readTextFileSync("/sys/kernel/mm/transparent_hugepage/enabled").includes("[never]");

/** A field (KiB) of the mappings within `[start, start + size)`, from /proc/self/smaps. */
function smapsKiB(field: "AnonHugePages" | "Rss", start: bigint, size: bigint): number {
  let total = 0;
  for (const entry of Deno.readTextFileSync("/proc/self/smaps").split(/\n(?=[0-9a-f]+-)/)) {
    const from = BigInt(`0x${entry.slice(0, entry.indexOf("-"))}`);
    if (from < start || from >= start + size) continue;
    total += Number(entry.match(new RegExp(`\n${field}:\\s+(\\d+)`))![1]);
  }
  return total;
}
const anonHugeKiB = (start: bigint, size: bigint) => smapsKiB("AnonHugePages", start, size);

/**
 * Two anonymous regions mapped at once, `first` and `second` bytes, kept apart by an inaccessible
 * 2 MiB gap (the kernel would merge them into one region otherwise).
 */
function twoRegions(first: bigint, second: bigint) {
  const length = first + 2n * MiB + second;
  const whole = libc.symbols.mmap(0n, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0n)!;
  const start = BigInt(Deno.UnsafePointer.value(whole));
  assert.equal(
    libc.symbols.mprotect(Deno.UnsafePointer.create(start + first), 2n * MiB, PROT_NONE),
    0,
  );
  return {
    first: start,
    second: start + first + 2n * MiB,
    free: () => libc.symbols.munmap(whole, length),
  };
}

/** The bytes at `address`, in place. */
function bytes(address: bigint, length: bigint): Uint8Array {
  return new Uint8Array(
    Deno.UnsafePointerView.getArrayBuffer(Deno.UnsafePointer.create(address)!, Number(length)),
  );
}

Deno.test({
  name:
    "HugePages collapses a filled anonymous region mapped since the snapshot, not a half-used one",
  ignore: thpOff,
  fn() {
    const hugePages = new HugePages();
    const size = 32n * MiB;
    const before = hugePages.snapshot();
    const regions = twoRegions(size, size);
    const [filled, halfUsed] = [regions.first, regions.second];
    try {
      bytes(filled, size).fill(7);
      bytes(halfUsed, size / 2n).fill(7);
      const report = hugePages.adviseSince(before);
      assert.ok(report.collapsed >= 28 * 1024 * 1024, `collapsed ${report.collapsed} bytes`);
      assert.ok(anonHugeKiB(filled, size) >= 28 * 1024);
      assert.equal(anonHugeKiB(halfUsed, size), 0);
      assert.ok(bytes(filled, size).every((byte) => byte === 7), "the contents are kept");
    } finally {
      regions.free();
    }
  },
});

Deno.test({
  name: "HugePages gives back the zero pages of a large region mapped since the snapshot only",
  ignore: Deno.build.os !== "linux",
  fn() {
    const hugePages = new HugePages();
    const [large, small] = [80n * MiB, 32n * MiB];
    const before = hugePages.snapshot();
    // Both cleared as llama.cpp clears a KV cache (resident zeros), a few bytes written after.
    const regions = twoRegions(large, small);
    try {
      bytes(regions.first, large).fill(0);
      bytes(regions.second, small).fill(0);
      const written = [regions.first + 10n * MiB + 5n, regions.first + large - 1n];
      for (const address of written) bytes(address, 1n)[0] = 9;
      const released = hugePages.releaseZeroPagesSince(before);
      assert.ok(released >= 79 * 1024 * 1024, `released ${released} bytes`);
      assert.ok(smapsKiB("Rss", regions.first, large) <= 16, "the zero pages are not resident");
      assert.ok(
        smapsKiB("Rss", regions.second, small) >= 32 * 1024,
        "a region an arena could be is left alone",
      );
      for (const address of written) assert.equal(bytes(address, 1n)[0], 9, "written bytes stay");
      const zeros = bytes(regions.first, 10n * MiB);
      assert.ok(zeros.every((byte) => byte === 0), "given-back pages read as zeros");
    } finally {
      regions.free();
    }
  },
});
