import assert from "node:assert/strict";
import { GgufHeaderError, readGgufHeader } from "../../inference/gguf_header.ts";
import { TINY_GGUF } from "../support/infer_daemon.ts";
import {
  firstTensorInfo,
  type GgufPatch,
  patchedTinyGguf,
  tensorInfoFields,
} from "../support/gguf_patch.ts";

Deno.test("readGgufHeader reads the tiny fixture: v3, 21 tensors, aligned data", async () => {
  const header = await readGgufHeader(TINY_GGUF);
  assert.equal(header.version, 3);
  assert.equal(header.tensorCount, 21);
  assert.equal(header.dataOffset % 32, 0);
});

/** Headers that lie, each refused with a reason naming what is wrong. */
const LIES: Array<{ name: string; patch: GgufPatch; reason: RegExp }> = [
  {
    name: "an absurd tensor count",
    patch: (b, v) => (v.setBigUint64(8, 1n << 40n, true), b),
    reason: /tensor count \(1099511627776\) does not fit/,
  },
  {
    name: "an absurd metadata count",
    patch: (b, v) => (v.setBigUint64(16, 1n << 50n, true), b),
    reason: /metadata count .* does not fit/,
  },
  {
    name: "a key longer than the file",
    patch: (b, v) => (v.setBigUint64(24, 1n << 60n, true), b),
    reason: /metadata key is \d+ bytes long/,
  },
  {
    name: "the wrong magic",
    patch: (b) => (b.set([0x47, 0x47, 0x4d, 0x4c]), b),
    reason: /not a GGUF file/,
  },
  {
    name: "an unknown version",
    patch: (b, v) => (v.setUint32(4, 99, true), b),
    reason: /version 99 is not supported/,
  },
  {
    name: "a file cut inside the metadata",
    patch: (b) => b.subarray(0, 300),
    reason: /does not fit in the file|runs past the end of the file/,
  },
  {
    name: "a file cut inside the tensor data",
    patch: (b) => b.subarray(0, Math.floor(b.length / 2)),
    reason: /ends past the end of the file/,
  },
  {
    name: "a tensor offset past the end",
    patch: (b, v) => {
      v.setBigUint64(tensorInfoFields(v, firstTensorInfo(b)).offset, 1n << 40n, true);
      return b;
    },
    reason: /token_embd\.weight ends past the end/,
  },
  {
    name: "a misaligned tensor offset",
    patch: (b, v) => {
      v.setBigUint64(tensorInfoFields(v, firstTensorInfo(b)).offset, 3n, true);
      return b;
    },
    reason: /not aligned/,
  },
  {
    name: "an unknown tensor type",
    patch: (b, v) => (v.setUint32(tensorInfoFields(v, firstTensorInfo(b)).type, 250, true), b),
    reason: /unknown type 250/,
  },
  {
    name: "five dimensions",
    patch: (b, v) => (v.setUint32(tensorInfoFields(v, firstTensorInfo(b)).dims, 5, true), b),
    reason: /5 dimensions/,
  },
];

for (const { name, patch, reason } of LIES) {
  Deno.test(`readGgufHeader refuses ${name}, saying why`, async () => {
    const path = await patchedTinyGguf(patch);
    try {
      await assert.rejects(readGgufHeader(path), (error: unknown) => {
        assert.ok(error instanceof GgufHeaderError, String(error));
        assert.match(error.message, reason);
        return true;
      });
    } finally {
      await Deno.remove(path);
    }
  });
}
