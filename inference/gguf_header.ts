/**
 * Validates a GGUF file's header before llama.cpp sees it: every count, length, offset and size
 * is checked against the file's length while reading, so a lying header (an absurd tensor
 * count, a string longer than the file, a tensor past the end) is refused in milliseconds with
 * bounded memory instead of making the loader allocate for it. A 2026 CVE in a peer's GGUF
 * loader was this class of bug.
 *
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md (versions 2 and 3).
 */

/** What a valid header tells us. */
export interface GgufHeader {
  version: number;
  tensorCount: number;
  /** `general.name`, when the file names itself. */
  name?: string;
  /** Where tensor data starts (aligned). */
  dataOffset: number;
}

/** A header that does not describe a loadable file. */
export class GgufHeaderError extends Error {
  override name = "GgufHeaderError";
}

/** The most dimensions a ggml tensor has. */
const MAX_DIMS = 4;
/** Keys are short names (`general.name`); anything longer is not a real file. */
const MAX_KEY_BYTES = 64 * 1024;
/** Bytes read at once from the file. */
const CHUNK = 64 * 1024;

/** Value types of the metadata (the `gguf_type` enum). */
const VALUE_SIZES: Record<number, number> = {
  0: 1, // uint8
  1: 1, // int8
  2: 2, // uint16
  3: 2, // int16
  4: 4, // uint32
  5: 4, // int32
  6: 4, // float32
  7: 1, // bool
  10: 8, // uint64
  11: 8, // int64
  12: 8, // float64
};
const STRING = 8;
const ARRAY = 9;

/** `[elements per block, bytes per block]` of every ggml tensor type this llama.cpp knows. */
const TENSOR_TYPES: Record<number, [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
  34: [256, 54], // TQ1_0
  35: [256, 66], // TQ2_0
  39: [32, 17], // MXFP4
};

/** Smallest encodings, to bound counts by the bytes left: key/name length, type, one item. */
const MIN_KV_BYTES = 8 + 4 + 1;
const MIN_TENSOR_INFO_BYTES = 8 + 4 + 8 + 4 + 8;

/**
 * Reads and checks the header of the GGUF file at `path`.
 *
 * @throws {GgufHeaderError} when the header is not a valid GGUF v2/v3 header for this file.
 * @throws {Deno.errors.NotFound} (and other I/O errors) when the file cannot be read.
 */
export async function readGgufHeader(path: string): Promise<GgufHeader> {
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  const reader = new BoundedReader(file, size);
  if (size < 24 || (await reader.bytes(4, "the magic")).join() !== "71,71,85,70") {
    throw new GgufHeaderError("not a GGUF file (no GGUF magic)");
  }
  const version = await reader.u32("the version");
  if (version !== 2 && version !== 3) {
    throw new GgufHeaderError(`GGUF version ${version} is not supported (2 or 3)`);
  }
  const tensorCount = await reader.count("the tensor count", MIN_TENSOR_INFO_BYTES);
  const kvCount = await reader.count("the metadata count", MIN_KV_BYTES);
  let alignment = 32;
  let name: string | undefined;
  for (let i = 0; i < kvCount; i++) {
    const key = new TextDecoder().decode(await reader.string("a metadata key", MAX_KEY_BYTES));
    const type = await reader.u32(`the type of ${key}`);
    if (key === "general.alignment" && type === 4) {
      alignment = await reader.u32(key);
      if (alignment === 0 || (alignment & (alignment - 1)) !== 0) {
        throw new GgufHeaderError(`general.alignment ${alignment} is not a power of two`);
      }
    } else if (key === "general.name" && type === STRING) {
      name = new TextDecoder().decode(await reader.string(key, MAX_KEY_BYTES));
    } else await skipValue(reader, type, key);
  }
  const infos: Array<{ name: string; offset: bigint; bytes: bigint }> = [];
  for (let i = 0; i < tensorCount; i++) {
    const tensor = new TextDecoder().decode(await reader.string("a tensor name", MAX_KEY_BYTES));
    infos.push({ name: tensor, ...await readTensorInfo(reader, tensor) });
  }
  const dataOffset = Math.ceil(reader.position / alignment) * alignment;
  const dataBytes = BigInt(size - Math.min(dataOffset, size));
  for (const info of infos) {
    if (info.offset % BigInt(alignment) !== 0n) {
      throw new GgufHeaderError(`tensor ${info.name} is not aligned to ${alignment} bytes`);
    }
    if (info.offset + info.bytes > dataBytes) {
      throw new GgufHeaderError(
        `tensor ${info.name} ends past the end of the file (truncated or corrupt)`,
      );
    }
  }
  return { version, tensorCount, name, dataOffset };
}

async function readTensorInfo(reader: BoundedReader, tensor: string) {
  const dims = await reader.u32(`the dimensions of ${tensor}`);
  if (dims < 1 || dims > MAX_DIMS) {
    throw new GgufHeaderError(`tensor ${tensor} has ${dims} dimensions (1 to ${MAX_DIMS})`);
  }
  let elements = 1n;
  let first = 0n;
  for (let d = 0; d < dims; d++) {
    const extent = await reader.u64(`a dimension of ${tensor}`);
    if (extent < 1n) throw new GgufHeaderError(`tensor ${tensor} has an empty dimension`);
    if (d === 0) first = extent;
    elements *= extent;
  }
  const type = await reader.u32(`the type of ${tensor}`);
  const layout = TENSOR_TYPES[type];
  if (!layout) throw new GgufHeaderError(`tensor ${tensor} has unknown type ${type}`);
  const [block, blockBytes] = layout.map(BigInt);
  if (first % block !== 0n) {
    throw new GgufHeaderError(`tensor ${tensor}'s rows are not whole blocks of its type`);
  }
  const offset = await reader.u64(`the offset of ${tensor}`);
  return { offset, bytes: (elements / block) * blockBytes };
}

async function skipValue(reader: BoundedReader, type: number, key: string): Promise<void> {
  if (type === STRING) return reader.skipString(key);
  if (type !== ARRAY) return reader.skip(fixedSize(type, key), key);
  const itemType = await reader.u32(`the item type of ${key}`);
  if (itemType === ARRAY) throw new GgufHeaderError(`${key} is an array of arrays`);
  const itemSize = itemType === STRING ? 8 : fixedSize(itemType, key);
  const count = await reader.count(`the length of ${key}`, itemSize);
  if (itemType !== STRING) return reader.skip(count * itemSize, key);
  for (let i = 0; i < count; i++) await reader.skipString(key);
}

function fixedSize(type: number, key: string): number {
  const size = VALUE_SIZES[type];
  if (size === undefined) throw new GgufHeaderError(`${key} has unknown value type ${type}`);
  return size;
}

/** Sequential little-endian reads that never go past the file's length. */
class BoundedReader {
  #buffer = new Uint8Array(0);
  #at = 0;
  #fileAt = 0;
  position = 0;

  constructor(readonly file: Deno.FsFile, readonly size: number) {}

  /** A count whose items take at least `minBytes` each: bounded by the bytes left. */
  async count(what: string, minBytes: number): Promise<number> {
    const value = await this.u64(what);
    if (value * BigInt(minBytes) > BigInt(this.size - this.position)) {
      throw new GgufHeaderError(`${what} (${value}) does not fit in the file`);
    }
    return Number(value);
  }

  async u32(what: string): Promise<number> {
    const bytes = await this.bytes(4, what);
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  }

  async u64(what: string): Promise<bigint> {
    const bytes = await this.bytes(8, what);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  }

  async string(what: string, maxBytes: number): Promise<Uint8Array> {
    const length = await this.u64(`the length of ${what}`);
    if (length > BigInt(maxBytes)) {
      throw new GgufHeaderError(`${what} is ${length} bytes long (at most ${maxBytes})`);
    }
    return this.bytes(Number(length), what);
  }

  async skipString(what: string): Promise<void> {
    const length = await this.u64(`the length of ${what}`);
    if (length > BigInt(this.size - this.position)) {
      throw new GgufHeaderError(`a string of ${what} runs past the end of the file`);
    }
    this.skip(Number(length), what);
  }

  skip(count: number, what: string): void {
    this.#need(count, what);
    const buffered = this.#buffer.length - this.#at;
    if (count <= buffered) {
      this.#at += count;
    } else {
      this.#fileAt += count - buffered;
      this.#buffer = new Uint8Array(0);
      this.#at = 0;
    }
    this.position += count;
  }

  async bytes(count: number, what: string): Promise<Uint8Array> {
    this.#need(count, what);
    while (this.#buffer.length - this.#at < count) await this.#fill(count);
    const out = this.#buffer.subarray(this.#at, this.#at + count);
    this.#at += count;
    this.position += count;
    return out;
  }

  #need(count: number, what: string): void {
    if (this.position + count > this.size) {
      throw new GgufHeaderError(`${what} runs past the end of the file (truncated or corrupt)`);
    }
  }

  async #fill(atLeast: number): Promise<void> {
    const rest = this.#buffer.subarray(this.#at);
    const chunk = new Uint8Array(Math.max(CHUNK, atLeast));
    await this.file.seek(this.#fileAt, Deno.SeekMode.Start);
    const read = await this.file.read(chunk);
    if (read === null || read === 0) throw new GgufHeaderError("the file ended early");
    this.#fileAt += read;
    const next = new Uint8Array(rest.length + read);
    next.set(rest);
    next.set(chunk.subarray(0, read), rest.length);
    this.#buffer = next;
    this.#at = 0;
  }
}
