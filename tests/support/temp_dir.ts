/**
 * A temporary directory for one test, removed afterwards whatever the test did.
 */

/**
 * Runs `fn` with a fresh temporary directory and removes it (recursively) afterwards.
 *
 * @example
 * ```ts
 * await withTempDir("tolk-cli-test-", async (dir) => { … });
 * ```
 */
export async function withTempDir<T>(
  prefix: string,
  fn: (dir: string) => Promise<T> | T,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
