/** Starting a server for a bench: a free loopback port, and waiting until it is healthy. */

/** A loopback port free right now (the server started next binds it). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Waits until `GET <baseUrl>/health` answers 200, at most two minutes (a model loads first).
 *
 * @throws {Error} when the process exits or the time runs out first.
 */
export async function waitHealthy(baseUrl: string, what: string, exited: Promise<unknown>) {
  let done = false;
  exited.then(() => done = true);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !done) {
    try {
      const response = await fetch(`${baseUrl}/health`);
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not become ready`);
}
