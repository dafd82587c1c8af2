/**
 * Runs the real `tolk` command line (`main.ts`) as a subprocess, under the permissions the
 * command holds in production.
 */
import { defaultConfigPath, defaultDataDir, defaultModelsDir } from "../../cli/config_paths.ts";
import { commandPermissions, permissionFlags, permissionRow } from "../../cli/permissions.ts";
import { waitForLine } from "./log_lines.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * The Deno flags a `tolk` command line runs under: the command's row of the permission table
 * (cli/permissions.ts), with the paths its flags and environment name. The service tests thus
 * run the service exactly as the `start` task does, and the runtime enforces "loopback only".
 */
export function tolkPermissionFlags(args: string[], env: Record<string, string>): string[] {
  const [command, ...rest] = args;
  const flag = (name: string) => {
    const inline = rest.find((arg) => arg.startsWith(`--${name}=`));
    const index = rest.indexOf(`--${name}`);
    return inline?.slice(name.length + 3) ?? (index === -1 ? undefined : rest[index + 1]);
  };
  const dataDir = flag("data-dir") ?? env.TOLK_DATA_DIR ?? defaultDataDir();
  const paths = {
    config: flag("config") ?? env.TOLK_CONFIG ?? defaultConfigPath(),
    dataDir,
    modelsDir: flag("models-dir") ?? env.TOLK_MODELS_DIR ?? defaultModelsDir(dataDir),
  };
  const row = permissionRow(command, rest);
  if (row === undefined) return ["--allow-all"]; // an unknown command only prints its error
  return permissionFlags(
    commandPermissions(row, paths, {
      hubEndpoint: env.HF_ENDPOINT,
      inferHost: flag("host"),
      modelPath: flag("model"),
    }),
  );
}

/** The folders a `tolk serve` under test uses; `modelsDir` absent: `<dataDir>/models`. */
export interface ServePaths {
  config: string;
  dataDir: string;
  modelsDir?: string;
}

/**
 * The arguments of `tolk serve` on a free port with these folders.
 *
 * @example
 * ```ts
 * const server = await startTolkServer(serveArgs({ config, dataDir: dir }));
 * ```
 */
export function serveArgs(paths: ServePaths): string[] {
  const models = paths.modelsDir === undefined ? [] : ["--models-dir", paths.modelsDir];
  return ["serve", "--port", "0", "--config", paths.config, "--data-dir", paths.dataDir, ...models];
}

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
  /**
   * Settles once every line the process wrote to stderr is in `stderr` (its stderr ended). Its
   * exit settles first: the lines still in the pipe are read after it.
   */
  stderrEnded: Promise<void>;
  /** Sends SIGTERM and resolves to the exit code once `stderr` holds every line it wrote. */
  stop(): Promise<number>;
}

/** Options of {@link startTolkServer}. */
export interface TolkServerOptions {
  /**
   * Run it as the leader of a process group of its own (`setsid`), so a test can signal the
   * group as a terminal's Ctrl-C does (`Deno.kill(-pid, "SIGINT")`) without signalling itself.
   */
  processGroup?: boolean;
}

/** Starts `tolk <args>` and waits for `listening on http://…` on stdout. */
export async function startTolkServer(
  args: string[],
  env: Record<string, string> = {},
  options: TolkServerOptions = {},
): Promise<TolkServer> {
  const process = tolkCommand(args, env, "piped", options.processGroup).spawn();
  const stderr: string[] = [];
  const stderrEnded = collectLines(process.stderr, (line) => stderr.push(line));
  const reader = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) {
      await process.status;
      await stderrEnded;
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
    stderrEnded,
    async stop() {
      process.kill("SIGTERM");
      const { code } = await process.status;
      await stderrEnded; // a test reads the log after stop: the last lines must be in it
      return code;
    },
  };
}

/**
 * Resolves to the first line of `server.stderr` matching `pattern`, once it has been read: the
 * process writes stderr and stdout on separate pipes, so a line written before `listening on`
 * (or before an HTTP answer) may still be on its way when the test looks.
 *
 * @throws {Error} with the lines collected when the process's stderr ends, or 30 s pass, first.
 * @example
 * ```ts
 * await waitForStderrLine(server, /tolk api enable/);
 * ```
 */
export function waitForStderrLine(
  server: Pick<TolkServer, "stderr" | "stderrEnded">,
  pattern: RegExp,
): Promise<string> {
  return waitForLine(server.stderr, pattern, { ended: server.stderrEnded, source: "stderr" });
}

/**
 * The command line that runs `tolk <args>` (the program first), for a test that needs a shell
 * around it: `sh -c 'exec "$@" > /dev/full' sh …`.
 */
export function tolkArgv(args: string[], env: Record<string, string> = {}): string[] {
  return [Deno.execPath(), "run", ...tolkPermissionFlags(args, env), MAIN, ...args];
}

function tolkCommand(
  args: string[],
  env: Record<string, string>,
  stdio: "piped",
  processGroup = false,
) {
  // setsid execs in place (a child of Deno leads no group), so the pid stays tolk's own.
  const [program, ...argv] = processGroup
    ? ["setsid", ...tolkArgv(args, env)]
    : tolkArgv(args, env);
  return new Deno.Command(program, {
    args: argv,
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: stdio,
    stderr: stdio,
  });
}

/** Calls `onLine` for each line of `stream`; settles when the stream ends. */
function collectLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): Promise<void> {
  return (async () => {
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
