/**
 * Stops a command and everything it started: `deno task` and `npx` run the program as a child,
 * which a signal to the parent alone leaves running.
 */

/** Every descendant of `pid` (Linux `/proc`). */
export async function descendants(pid: number): Promise<number[]> {
  const found: number[] = [];
  const tasks = await Array.fromAsync(Deno.readDir(`/proc/${pid}/task`)).catch(() => []);
  for (const task of tasks) {
    const text = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/children`).catch(() => "");
    for (const child of text.split(" ").filter(Boolean).map(Number)) {
      found.push(child, ...await descendants(child));
    }
  }
  return found;
}

/** Sends SIGTERM to `process` and its descendants (read first), then waits for it. */
export async function stopProcessTree(process: Deno.ChildProcess): Promise<void> {
  for (const pid of [process.pid, ...await descendants(process.pid)]) {
    try {
      Deno.kill(pid, "SIGTERM");
    } catch { /* already gone */ }
  }
  await process.status;
}

/** Reads `stream` until it has given a line for which `done` is true; returns the text so far. */
export async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  done: (text: string) => boolean,
): Promise<string> {
  let seen = "";
  while (!done(seen)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    seen += value;
  }
  return seen;
}
