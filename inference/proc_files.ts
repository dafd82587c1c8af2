/**
 * Reads `/proc` for {@link CpuContention} through libc: Deno's file API refuses `/proc/<pid>`
 * unless the process runs with `--allow-all`, and `tolk infer` keeps its narrow grants (it already
 * has `--allow-ffi` for the batched decoder).
 */
import type { ProcReader } from "./cpu_contention.ts";

const O_RDONLY = 0;
/** Offset of `d_name` in glibc's `struct dirent` (Linux). */
const DIRENT_NAME = 19;

const encoder = new TextEncoder();
const cString = (text: string) => encoder.encode(`${text}\0`);

const LIBC_SYMBOLS = {
  open: { parameters: ["buffer", "i32"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  opendir: { parameters: ["buffer"], result: "pointer" },
  readdir: { parameters: ["pointer"], result: "pointer" },
  closedir: { parameters: ["pointer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Small `/proc` files and directories, read with libc's `open`/`read` and `opendir`/`readdir`. */
export class ProcFiles implements ProcReader {
  readonly #libc = Deno.dlopen("libc.so.6", LIBC_SYMBOLS).symbols;
  readonly #buffer = new Uint8Array(1024);
  readonly #decoder = new TextDecoder();

  /** The first KiB of a small file such as `/proc/loadavg` ("" when unreadable). */
  read(path: string): string {
    const fd = this.#libc.open(cString(path), O_RDONLY);
    if (fd < 0) return "";
    const size = Number(this.#libc.read(fd, this.#buffer, BigInt(this.#buffer.length)));
    this.#libc.close(fd);
    return size > 0 ? this.#decoder.decode(this.#buffer.subarray(0, size)) : "";
  }

  /** The names in a directory, without `.` and `..` ([] when unreadable). */
  list(path: string): string[] {
    const dir = this.#libc.opendir(cString(path));
    if (!dir) return [];
    const names: string[] = [];
    for (let entry = this.#libc.readdir(dir); entry; entry = this.#libc.readdir(dir)) {
      const name = new Deno.UnsafePointerView(entry).getCString(DIRENT_NAME);
      if (name !== "." && name !== "..") names.push(name);
    }
    this.#libc.closedir(dir);
    return names;
  }
}
