/**
 * node-llama-cpp's own console messages while its runtime starts, held back until it has.
 *
 * It writes some failures itself with `console.error`, stack trace included, and no option routes
 * them (`logger` takes llama.cpp's log only). One of them the daemon causes: on Linux it tests its
 * prebuilt binary in a child process, and a terminal's Ctrl-C reaches that child with the rest of
 * the process group, so the test "fails" while the daemon is stopping anyway.
 */

/** node-llama-cpp's prefix, after chalk's colour codes (no white space) when there is colour. */
const LIBRARY_PREFIX = /^\S*\[node-llama-cpp\]/;

const METHODS = ["error", "warn", "info", "log"] as const;
type Method = typeof METHODS[number];

/** Messages held so far, in order, with the method that would have written each one. */
const held: Array<{ method: Method; args: unknown[] }> = [];
let holders = 0;
let original: Pick<Console, Method> | undefined;

function hold(): void {
  if (holders++ > 0) return;
  original = { error: console.error, warn: console.warn, info: console.info, log: console.log };
  for (const method of METHODS) {
    const write = original[method];
    console[method] = (...args: unknown[]) => {
      if (typeof args[0] === "string" && LIBRARY_PREFIX.test(args[0])) {
        held.push({ method, args });
      } else write(...args);
    };
  }
}

/** Stops holding (when no other start still runs) and hands over what was held. */
function release(): Array<{ method: Method; args: unknown[] }> {
  const messages = held.splice(0);
  if (--holders === 0) Object.assign(console, original);
  return messages;
}

/**
 * Runs `start` with node-llama-cpp's console messages held back (everything else is written at
 * once); when it settles, writes them as they were unless `quiet()` says the daemon is stopping.
 *
 * @example
 * ```ts
 * const llama = await withLibraryMessagesHeld(() => loadLlama(), () => stopping);
 * ```
 */
export async function withLibraryMessagesHeld<T>(
  start: () => Promise<T>,
  quiet: () => boolean,
): Promise<T> {
  hold();
  try {
    return await start();
  } finally {
    const messages = release();
    if (!quiet()) { for (const { method, args } of messages) console[method](...args); }
  }
}
