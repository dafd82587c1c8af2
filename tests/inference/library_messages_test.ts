import assert from "node:assert/strict";
import { withLibraryMessagesHeld } from "../../inference/library_messages.ts";

/** Runs `body` with console.error and console.warn writing into the returned list. */
async function recording(body: (written: string[]) => Promise<void>): Promise<string[]> {
  const written: string[] = [];
  const { error, warn } = console;
  console.error = (...args: unknown[]) => written.push(`error ${args.map(String).join(" ")}`);
  console.warn = (...args: unknown[]) => written.push(`warn ${args.map(String).join(" ")}`);
  try {
    await body(written);
  } finally {
    Object.assign(console, { error, warn });
  }
  return written;
}

Deno.test("node-llama-cpp's messages are held until its start settles, then written as they were", async () => {
  const written = await recording(async (written) => {
    await withLibraryMessagesHeld(() => {
      console.warn("\x1b[90m[node-llama-cpp]\x1b[39m a warning");
      console.error("tolk's own line");
      assert.deepEqual(written, ["error tolk's own line"]);
      return Promise.resolve();
    }, () => false);
  });
  assert.deepEqual(written, [
    "error tolk's own line",
    "warn \x1b[90m[node-llama-cpp]\x1b[39m a warning",
  ]);
});

Deno.test("node-llama-cpp's messages are dropped when its start fails while the daemon stops", async () => {
  const written = await recording(async () => {
    const failing = withLibraryMessagesHeld(() => {
      console.error("[node-llama-cpp] Failed to load a prebuilt binary. Error:", new Error("x"));
      return Promise.reject(new Error("NoBinaryFoundError"));
    }, () => true);
    await assert.rejects(failing, /NoBinaryFoundError/);
  });
  assert.deepEqual(written, []);
});

Deno.test("the console is itself again once every start has settled", async () => {
  const { error } = console;
  const first = Promise.withResolvers<void>();
  const both = Promise.all([
    withLibraryMessagesHeld(() => first.promise, () => true),
    withLibraryMessagesHeld(() => Promise.resolve(), () => true),
  ]);
  first.resolve();
  await both;
  assert.equal(console.error, error);
});
