/**
 * Runs the real `tolk` command line (`main.ts`) as a subprocess.
 */

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const PERMISSIONS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-ffi",
  "--allow-sys",
  "--allow-run",
];

/** The outcome of a finished command. */
export interface TolkResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `tolk <args>` to completion. */
export async function runTolkProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<TolkResult> {
  const output = await tolkCommand(args, env, "piped").output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** A long-running `tolk` (serve or infer) that printed its `listening on` line. */
export interface TolkServer {
  url: string;
  process: Deno.ChildProcess;
  /** Lines it wrote to stderr so far. */
  stderr: string[];
  /** Sends SIGTERM and resolves to the exit code. */
  stop(): Promise<number>;
}

/** Starts `tolk <args>` and waits for `listening on http://…` on stdout. */
export async function startTolkServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<TolkServer> {
  const process = tolkCommand(args, env, "piped").spawn();
  const stderr: string[] = [];
  collectLines(process.stderr, (line) => stderr.push(line));
  const reader = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) {
      await process.status;
      throw new Error(`tolk ${args.join(" ")} exited before listening: ${stderr.join("\n")}`);
    }
    seen += value;
  }
  reader.releaseLock();
  process.stdout.cancel().catch(() => {});
  const match = seen.match(/^listening on (http:\/\/\S+)\n/);
  if (!match) throw new Error(`unexpected first line: ${seen}`);
  return {
    url: match[1],
    process,
    stderr,
    async stop() {
      process.kill("SIGTERM");
      return (await process.status).code;
    },
  };
}

function tolkCommand(args: string[], env: Record<string, string>, stdio: "piped") {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMISSIONS, MAIN, ...args],
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: stdio,
    stderr: stdio,
  });
}

function collectLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) {
  (async () => {
    let rest = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      const lines = rest.split("\n");
      rest = lines.pop()!;
      lines.forEach(onLine);
    }
    if (rest) onLine(rest);
  })().catch(() => {});
}
