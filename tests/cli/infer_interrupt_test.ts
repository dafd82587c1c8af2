/**
 * Ctrl-C while `tolk infer` loads its model. A terminal signals the whole process group, so on
 * Linux node-llama-cpp's binary test (a child process it forks before loading its prebuilt
 * binary) dies with the daemon, and node-llama-cpp wrote that failure, stack trace and all.
 *
 * The observable point: the test child running. It is frozen (SIGSTOP) as soon as it is seen, so
 * the group's SIGINT reaches it while the load is certainly still waiting for it; let go
 * (SIGCONT) right after, it dies of the pending SIGINT. (Left frozen longer, it would not show
 * the bug: the daemon exits once nothing but that child is left to wait for.)
 */
import assert from "node:assert/strict";
import { TINY_GGUF } from "../support/infer_daemon.ts";
import { descendants } from "../support/process_tree.ts";
import { startTolkServer, type TolkServer } from "../support/tolk_process.ts";

/** Runs the binary test catches in a row may miss (it runs for tens of milliseconds). */
const ATTEMPTS = 5;

/** The binary test child of `pid` while it runs; null once the load has gone past it. */
async function binaryTestChild(server: TolkServer): Promise<number | null> {
  const pid = server.process.pid;
  while (!server.stderr.some((line) => / ready \(/.test(line))) {
    for (const child of await descendants(pid)) {
      const command = await Deno.readTextFile(`/proc/${child}/cmdline`).catch(() => "");
      if (command.includes("testBindingBinary")) return child;
    }
    const exited = await Promise.race([
      server.process.status.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 2)),
    ]);
    if (exited) return null;
  }
  return null;
}

Deno.test("tolk infer interrupted by Ctrl-C while node-llama-cpp tests its binary says only shutting down, exit 0", async () => {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const server = await startTolkServer(
      ["infer", "--model", TINY_GGUF, "--port", "0"],
      {},
      { processGroup: true },
    );
    const child = await binaryTestChild(server);
    if (child === null) {
      await server.stop();
      continue;
    }
    Deno.kill(child, "SIGSTOP");
    Deno.kill(-server.process.pid, "SIGINT"); // the whole group, as a terminal's Ctrl-C
    Deno.kill(child, "SIGCONT");
    const status = await server.process.status;
    await server.stderrEnded;
    assert.equal(status.code, 0, server.stderr.join("\n"));
    assert.deepEqual(server.stderr, ["shutting down"]);
    return;
  }
  assert.fail(`the binary test child was not seen in ${ATTEMPTS} runs`);
});
