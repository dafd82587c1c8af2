/**
 * The Deno permissions each `tolk` command holds, in one table: the README's Permissions
 * section, the `start` task, the binary (`compile.sh`) and the suite's process tests follow it.
 *
 * Deno enforces these for JavaScript; the native code of onnxruntime and llama.cpp (loaded
 * through `--allow-ffi`) runs outside Deno's sandbox.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOOPBACK_NET_PERMISSION } from "../net/loopback.ts";

/** The model hub and the hosts its downloads redirect to (Deno `--allow-net` wildcards). */
export const HUB_NET_PERMISSION = ["huggingface.co", "*.huggingface.co", "*.hf.co"] as const;

/** The repository (or the binary's embedded tree): modules, node_modules and their assets. */
export const APP_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * `os.homedir()` (node-llama-cpp, onnxruntime's loader), `os.cpus()` and friends (thread
 * counts), and `uid` (Deno's `node:fs` polyfill during file checks).
 */
const NODE_SYS = ["homedir", "uid", "hostname", "networkInterfaces", "cpus", "osRelease"] as const;

/** Where a command's files live. */
export interface TolkPaths {
  /** The app's own folder (modules, node_modules); default {@link APP_ROOT}. */
  appRoot?: string;
  /** The settings file. */
  config: string;
  /** History and other data. */
  dataDir: string;
  /** Built-in models in the hub layout. */
  modelsDir: string;
}

/** The permissions of one command, by kind (an empty list means none of that kind). */
export interface CommandPermissions {
  net: readonly string[];
  read: readonly string[];
  write: readonly string[];
  /** `"all"`: any library, and pointers (Deno checks those only against an unscoped grant). */
  ffi: readonly string[] | "all";
  sys: readonly string[];
  /** Reads `TOLK_*`, `HF_ENDPOINT`, `SVC_API_KEY`, `HOME`, `XDG_*` and the libraries' own. */
  env: boolean;
  /** Executables it may start (only `infer`: node-llama-cpp's binary self-test, see README). */
  run: readonly string[];
}

/** The commands whose permissions differ. */
export type PermissionedCommand =
  | "serve"
  | "settings"
  | "settings-link"
  | "data"
  | "models-list"
  | "models-pull"
  | "infer"
  | "version";

/** Which row of the table each `tolk` command line runs under, by its command word. */
const ROWS: Record<string, (args: readonly string[]) => PermissionedCommand> = {
  serve: () => "serve",
  api: () => "settings",
  token: () => "settings",
  infer: () => "infer",
  models: (args) => args.includes("pull") ? "models-pull" : "models-list",
  history: () => "data",
  settings: () => "settings-link",
  version: () => "version",
};

/** The row `tolk <command> <args>` runs under; undefined for a command tolk does not have. */
export function permissionRow(
  command: string,
  args: readonly string[],
): PermissionedCommand | undefined {
  return Object.hasOwn(ROWS, command) ? ROWS[command](args) : undefined;
}

/** Options of {@link commandPermissions}. */
export interface PermissionOptions {
  /** `tolk infer --host`: a non-loopback bind adds that host. */
  inferHost?: string;
  /** `HF_ENDPOINT`: a hub stand-in or mirror that `models pull` may reach instead. */
  hubEndpoint?: string;
  /** `tolk infer --model`: the model file it reads. */
  modelPath?: string;
}

/**
 * The permissions `command` needs with `paths`, and nothing more.
 *
 * @example
 * ```ts
 * const flags = permissionFlags(commandPermissions("serve", paths));
 * ```
 */
export function commandPermissions(
  command: PermissionedCommand,
  paths: TolkPaths,
  options: PermissionOptions = {},
): CommandPermissions {
  const configDir = dirname(paths.config);
  const appRoot = paths.appRoot ?? APP_ROOT;
  const nodeModules = join(appRoot, "node_modules");
  switch (command) {
    case "version":
      return none({});
    case "settings": // api, token
      return none({ read: [configDir], write: [configDir] });
    case "settings-link": // settings: signs a link request to the service on loopback
      return none({ net: [...LOOPBACK_NET_PERMISSION], read: [configDir], write: [configDir] });
    case "data": // history
      return none({ read: [paths.dataDir], write: [paths.dataDir] });
    case "models-list":
      return none({ read: [paths.modelsDir] });
    case "models-pull":
      return none({
        net: options.hubEndpoint ? [new URL(options.hubEndpoint).host] : [...HUB_NET_PERMISSION],
        read: [paths.modelsDir, configDir], // pull without an id reads the default model
        write: [paths.modelsDir],
      });
    case "serve":
      return none({
        net: [...LOOPBACK_NET_PERMISSION],
        read: [appRoot, configDir, paths.dataDir, paths.modelsDir],
        write: [configDir, paths.dataDir],
        ffi: [nodeModules],
        sys: [...NODE_SYS],
      });
    case "infer":
      return none({
        net: options.inferHost ? [...LOOPBACK_NET_PERMISSION, options.inferHost] : [
          ...LOOPBACK_NET_PERMISSION,
        ],
        // glibc detection of node-llama-cpp stats libc in the system library folders.
        read: [
          APP_ROOT,
          "/lib",
          "/lib64",
          "/usr/lib",
          "/usr/lib64",
          ...optional(options.modelPath),
        ],
        // Unscoped: the decoder passes buffers to llama.cpp by address and calls ggml's thread
        // pool through a function pointer (inference/llama_native.ts), and Deno allows pointer
        // operations only under a plain --allow-ffi. The libraries themselves still come from
        // node_modules; native code is outside the sandbox either way (README).
        ffi: "all",
        sys: [...NODE_SYS],
        // node-llama-cpp forks the deno executable (with -A) to test its prebuilt binary on
        // Linux before loading it; there is no option to skip that. The README says so.
        run: [denoExecutable()],
      });
  }
}

/** The `deno run` flags granting `permissions` (plus `--no-prompt`: denied means denied). */
export function permissionFlags(permissions: CommandPermissions): string[] {
  const flags = ["--no-prompt"];
  const list = (name: string, values: readonly string[]) => {
    if (values.length) flags.push(`--allow-${name}=${values.join(",")}`);
  };
  list("net", permissions.net);
  list("read", permissions.read);
  list("write", permissions.write);
  if (permissions.ffi === "all") flags.push("--allow-ffi");
  else list("ffi", permissions.ffi);
  list("sys", permissions.sys);
  list("run", permissions.run);
  if (permissions.env) flags.push("--allow-env");
  return flags;
}

/**
 * The broad grant of the `tolk` task and the binary: every folder, loopback and the hub, native
 * code, subprocesses. Each command then drops what it never needs
 * ({@link dropUnneededPermissions}).
 */
export function broadPermissionFlags(): string[] {
  return [
    "--no-prompt",
    `--allow-net=${[...LOOPBACK_NET_PERMISSION, ...HUB_NET_PERMISSION].join(",")}`,
    "--allow-read",
    "--allow-write",
    "--allow-env",
    // Unscoped: `tolk infer` needs it (see "infer" above); scoped to node_modules, the
    // `tolk` task could not load any model.
    "--allow-ffi",
    `--allow-sys=${NODE_SYS.join(",")}`,
    "--allow-run",
  ];
}

/**
 * Gives up, for the rest of this process, what `command` never needs, so a broader grant (the
 * `tolk` task, the binary) still runs each command under the runtime's enforcement: no network
 * for `api`/`token`/`models list`, no hub for `serve`/`infer`, no FFI, subprocess or system
 * information (`--allow-sys` but `homedir`) outside the commands that load native code.
 *
 * Deno can drop a whole kind or listed hosts, not narrow a blanket grant to paths; read and
 * write are therefore narrowed only by the flags (the `start` task, the suite's processes).
 */
export function dropUnneededPermissions(command: PermissionedCommand): void {
  const needs = commandPermissions(command, { config: "/", dataDir: "/", modelsDir: "/" });
  const revoke = (descriptor: Deno.PermissionDescriptor) => Deno.permissions.revokeSync(descriptor);
  if (needs.net.length === 0) revoke({ name: "net" });
  else if (command !== "models-pull") {
    // Revoking a host also drops the wildcard entries that cover it.
    HUB_PROBE_HOSTS.forEach((host) => revoke({ name: "net", host }));
  }
  if (needs.ffi.length === 0) revoke({ name: "ffi" });
  if (needs.sys.length === 0) {
    // homedir stays: with HOME unset, the default folders are found through os.homedir().
    NODE_SYS.filter((kind) => kind !== "homedir").forEach((kind) => revoke({ name: "sys", kind }));
  }
  if (needs.run.length === 0) revoke({ name: "run" });
  if (needs.write.length === 0) revoke({ name: "write" });
}

/** One host under each entry of {@link HUB_NET_PERMISSION}. */
const HUB_PROBE_HOSTS = ["huggingface.co", "cdn-lfs.huggingface.co", "cdn-lfs.hf.co"];

function denoExecutable(): string {
  try {
    return Deno.execPath();
  } catch {
    return "deno"; // execPath needs read access to it; the name is enough to revoke by kind
  }
}

function none(granted: Partial<CommandPermissions>): CommandPermissions {
  return { net: [], read: [], write: [], ffi: [], sys: [], run: [], env: true, ...granted };
}

function optional(value: string | undefined): string[] {
  return value === undefined ? [] : [value];
}

if (import.meta.main) {
  // compile.sh bakes these into the binary, one flag per line.
  console.log(broadPermissionFlags().join("\n"));
}
