/**
 * A real small or read-only filesystem for fault tests: a tmpfs mounted for the test when the
 * process may mount (root in a container, as in CI's runner here); null otherwise.
 */

/** A mounted tmpfs; `unmount()` also removes the mount point. */
export interface SmallFilesystem {
  path: string;
  /** Remounts read-only. */
  makeReadOnly(): Promise<void>;
  unmount(): Promise<void>;
}

/** Mounts a tmpfs of `sizeKiB`, or resolves to null when this process cannot mount. */
export async function mountTmpfs(sizeKiB: number): Promise<SmallFilesystem | null> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return null;
  const path = await Deno.makeTempDir({ prefix: "tolk-tmpfs-" });
  const mounted = await run("mount", [
    "-t",
    "tmpfs",
    "-o",
    `size=${sizeKiB}k,mode=0700`,
    "tmpfs",
    path,
  ]);
  if (!mounted) {
    await Deno.remove(path);
    return null;
  }
  return {
    path,
    async makeReadOnly() {
      if (!await run("mount", ["-o", "remount,ro", path])) throw new Error("remount ro failed");
    },
    async unmount() {
      await run("umount", [path]);
      await Deno.remove(path, { recursive: true });
    },
  };
}

/** Fills the filesystem at `dir` until a write fails with "no space". */
export async function fillFilesystem(dir: string): Promise<void> {
  const file = await Deno.open(`${dir}/filler`, { create: true, write: true });
  const block = new Uint8Array(4096);
  try {
    while (true) await file.write(block);
  } catch (error) {
    if (!/No space left/i.test(String(error))) throw error;
  } finally {
    file.close();
  }
}

async function run(command: string, args: string[]): Promise<boolean> {
  try {
    const output = await new Deno.Command(command, { args, stdout: "null", stderr: "null" })
      .output();
    return output.success;
  } catch {
    return false;
  }
}
