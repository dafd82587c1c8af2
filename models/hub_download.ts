/**
 * `tolk models pull`: downloads a translation model from a Hugging Face hub into the models
 * directory, in the hub's own layout.
 *
 * Files are listed with the tree API, fetched from `/{id}/resolve/main/{path}` into a staging
 * folder (`<models-dir>/.downloads/<org>/<name>/`) as `<file>.part`, resumed with `Range`,
 * verified (sha256 of LFS files, git blob sha1 of small files) and renamed into place only when
 * every file of the model is verified, so a failed pull never leaves a half model behind. Pulls of
 * one model take turns on `<models-dir>/.downloads/<org>/<name>.lock` (an OS file lock, released
 * when the process ends).
 */
import { createHash, type Hash } from "node:crypto";
import { dirname, join } from "node:path";
import {
  DTYPE_PREFERENCE,
  DTYPE_SUFFIXES,
  isModelId,
  REQUIRED_FILES,
  SEQ2SEQ_SESSIONS,
} from "./model_store.ts";

/** The public hub, used when neither the option nor `HF_ENDPOINT` names another. */
export const DEFAULT_HUB_ENDPOINT = "https://huggingface.co";

/** Optional files the engine reads when present. */
const OPTIONAL_FILES = ["generation_config.json", "special_tokens_map.json"];

/** A pull that cannot complete (unknown model, network failure, checksum mismatch). */
export class PullError extends Error {
  override name = "PullError";
}

/** Progress of a pull, reported as bytes arrive. */
export interface PullProgress {
  /** The file being downloaded (hub path). */
  file: string;
  /** Bytes of the whole model already on disk. */
  received: number;
  /** Bytes of the whole model. */
  total: number;
}

/** Options of {@link pullModel}. */
export interface PullOptions {
  modelsDir: string;
  /** Hub root (`tolk models` passes `$HF_ENDPOINT`); default {@link DEFAULT_HUB_ENDPOINT}. */
  endpoint?: string;
  /** ONNX variant; defaults to the first one the repository has in `DTYPE_PREFERENCE`. */
  dtype?: string;
  /** Attempts per file after a broken connection, each resuming where the last stopped. */
  retries?: number;
  onProgress?: (progress: PullProgress) => void;
  signal?: AbortSignal;
}

/** What a pull installed. */
export interface PullResult {
  id: string;
  path: string;
  dtype: string;
  files: string[];
  /** Bytes fetched over the network by this pull (less than the total after a resume). */
  downloadedBytes: number;
}

/** One file of a repository, as the tree API lists it. */
interface HubFile {
  path: string;
  size: number;
  /** Git blob sha1 (of the LFS pointer for LFS files). */
  oid: string;
  lfs?: { oid: string; size: number };
}

/**
 * Downloads model `id` (`org/name`) with one ONNX dtype and installs it atomically.
 *
 * @throws {PullError} when the model is unknown, lacks the files a translation needs, lacks the
 *   requested dtype, a download keeps failing, or a file does not match its checksum.
 * @example
 * ```ts
 * await pullModel("Xenova/nllb-200-distilled-600M", { modelsDir: "/home/me/.local/share/tolk/models" });
 * ```
 */
export async function pullModel(id: string, options: PullOptions): Promise<PullResult> {
  if (!isModelId(id)) throw new PullError(`Cannot pull "${id}": expected a model id org/name`);
  const endpoint = (options.endpoint ?? DEFAULT_HUB_ENDPOINT)
    .replace(/\/+$/, "");
  const listing = await listRepository(endpoint, id, options.signal);
  const { dtype, files } = chooseFiles(id, listing, options.dtype);

  try {
    return await install(endpoint, id, dtype, files, options);
  } catch (error) {
    if (error instanceof PullError || options.signal?.aborted) throw error;
    // The models folder itself failed (read-only, a file in its place, no space while renaming).
    throw new PullError(`Cannot install ${id} in ${options.modelsDir}: ${describe(error)}`, {
      cause: error,
    });
  }
}

/** Fetches `files` into the staging folder, then moves them into `<models-dir>/<id>/`. */
async function install(
  endpoint: string,
  id: string,
  dtype: string,
  files: HubFile[],
  options: PullOptions,
): Promise<PullResult> {
  const path = join(options.modelsDir, id);
  const staging = join(options.modelsDir, ".downloads", id);
  // A second pull of the same model waits for the first, then finds its files installed.
  await Deno.mkdir(dirname(staging), { recursive: true });
  using lock = await Deno.open(`${staging}.lock`, { write: true, create: true });
  await lock.lock(true);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  let done = 0;
  let downloadedBytes = 0;
  const fresh: HubFile[] = [];
  for (const file of files) {
    if (await matches(join(path, file.path), file)) {
      done += file.size;
      continue;
    }
    fresh.push(file);
    const fetched = await fetchVerified(`${endpoint}/${id}/resolve/main/${file.path}`, file, {
      destination: join(staging, file.path),
      retries: options.retries ?? 3,
      signal: options.signal,
      onBytes: (bytes) => options.onProgress?.({ file: file.path, received: done + bytes, total }),
    });
    downloadedBytes += fetched;
    done += file.size;
  }

  for (const file of fresh) {
    await Deno.mkdir(dirname(join(path, file.path)), { recursive: true });
    await Deno.rename(join(staging, file.path), join(path, file.path));
  }
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  return { id, path, dtype, files: files.map((file) => file.path), downloadedBytes };
}

async function listRepository(
  endpoint: string,
  id: string,
  signal?: AbortSignal,
): Promise<HubFile[]> {
  const files: HubFile[] = [];
  let url: string | null = `${endpoint}/api/models/${id}/tree/main?recursive=true`;
  while (url) {
    const response: Response = await request(url, { signal }).catch((error) => {
      if (signal?.aborted) throw error;
      throw new PullError(`Cannot reach ${endpoint}: ${describe(error)}`, { cause: error });
    });
    if (response.status === 404 || response.status === 401) {
      await response.body?.cancel();
      throw new PullError(`Cannot find model ${id} on ${endpoint} (HTTP ${response.status})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new PullError(`Cannot list model ${id} on ${endpoint}: HTTP ${response.status}`);
    }
    const entries = await response.json() as (HubFile & { type: string })[];
    files.push(...entries.filter((entry) => entry.type === "file"));
    // The tree API pages large repositories with a Link header.
    url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1] ?? null;
  }
  return files;
}

function chooseFiles(id: string, listing: HubFile[], requested?: string) {
  const byPath = new Map(listing.map((file) => [file.path, file]));
  const missing = REQUIRED_FILES.filter((file) => !byPath.has(file));
  if (missing.length > 0) {
    throw new PullError(
      `Cannot use ${id} as a translation model: it has no ${missing.join(", ")}`,
    );
  }
  const sessionFiles = (dtype: string) =>
    SEQ2SEQ_SESSIONS.map((session) => `onnx/${session}${DTYPE_SUFFIXES[dtype]}.onnx`);
  const available = DTYPE_PREFERENCE.filter((dtype) =>
    sessionFiles(dtype).every((path) => byPath.has(path))
  );
  if (available.length === 0) {
    throw new PullError(`Cannot use ${id}: it has no ONNX encoder_model + decoder_model_merged`);
  }
  const dtype = requested ?? available[0];
  if (!available.includes(dtype)) {
    throw new PullError(`${id} has no ${dtype} variant (it has: ${available.join(", ")})`);
  }
  const sessions = sessionFiles(dtype);
  // Large exports keep their weights beside the graph (`*.onnx_data`, `*.onnx_data_1`, …); a
  // listed name with a `/` after that (`…onnx_data/../../x`) would be written outside the model.
  const external = listing.filter((file) =>
    sessions.some((session) =>
      file.path.startsWith(`${session}_data`) && !file.path.slice(session.length).includes("/")
    )
  ).map((file) => file.path);
  const wanted = [...REQUIRED_FILES, ...OPTIONAL_FILES, ...sessions, ...external];
  return { dtype, files: wanted.flatMap((path) => byPath.get(path) ?? []) };
}

interface FetchOptions {
  destination: string;
  retries: number;
  signal?: AbortSignal;
  onBytes: (bytesOnDisk: number) => void;
}

/** Downloads one file into `destination` (verified), resuming its `.part`; returns bytes fetched. */
async function fetchVerified(url: string, file: HubFile, options: FetchOptions): Promise<number> {
  // Staged by an earlier pull, maybe of an older revision: kept only if it still matches.
  if (await matches(options.destination, file)) return 0;
  const part = `${options.destination}.part`;
  await Deno.mkdir(dirname(part), { recursive: true });
  let fetched = 0;
  for (let attempt = 0;; attempt++) {
    try {
      fetched += await fetchPart(url, part, file.size, options);
      break;
    } catch (error) {
      if (error instanceof ServerRefusal && attempt < options.retries && !options.signal?.aborted) {
        await wait(error.waitMs ?? 1000 * 2 ** attempt, options.signal);
        continue;
      }
      // A host outside the permission grant (the hub redirecting to a CDN host) stays refused.
      const refused = error instanceof Deno.errors.NotCapable;
      if (
        error instanceof PullError || refused || options.signal?.aborted ||
        attempt >= options.retries
      ) {
        throw error instanceof PullError ? error : new PullError(
          `Cannot download ${file.path}: ${describe(error)}` +
            (refused ? "" : " (run the same command again to resume)"),
          { cause: error },
        );
      }
    }
  }
  await verify(part, file);
  await Deno.rename(part, options.destination);
  return fetched;
}

/** Appends the missing bytes of `part`; returns how many arrived. */
async function fetchPart(url: string, part: string, size: number, options: FetchOptions) {
  let offset = await sizeOf(part) ?? 0;
  if (offset > size) offset = 0;
  if (offset === size) return 0;
  const headers = offset > 0 ? { range: `bytes=${offset}-` } : undefined;
  const response = await request(url, { headers, signal: options.signal });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    if (TRANSIENT_STATUSES.has(response.status)) {
      throw new ServerRefusal(response.status, response.headers.get("retry-after"));
    }
    throw new PullError(`Cannot download ${url}: HTTP ${response.status}`);
  }
  // A server that ignores Range sends the whole file again: start over.
  if (response.status !== 206) offset = 0;
  const out = await Deno.open(part, { write: true, create: true, truncate: offset === 0 });
  let received = 0;
  try {
    await out.seek(offset, Deno.SeekMode.Start);
    for await (const chunk of response.body) {
      await writeAll(out, chunk);
      received += chunk.length;
      options.onBytes(offset + received);
    }
  } finally {
    out.close();
  }
  if (offset + received !== size) {
    throw new Error(`connection closed after ${offset + received} of ${size} bytes`);
  }
  return received;
}

/**
 * Statuses a busy or briefly failing server (the hub's CDN) answers and that are worth asking
 * again: time out, too many requests, and the 5xx of a proxy or an overloaded origin.
 */
const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** The longest wait a server's `Retry-After` gets before the next attempt. */
const MAX_RETRY_AFTER_MS = 30_000;

/** A transient refusal: retried after the server's `Retry-After`, or a growing pause. */
class ServerRefusal extends Error {
  /** The server's `Retry-After` in ms (capped), or undefined when it gave none readable. */
  readonly waitMs: number | undefined;
  constructor(status: number, retryAfter: string | null) {
    super(`HTTP ${status}`);
    const seconds = retryAfter === null ? NaN : Number(retryAfter.trim());
    this.waitMs = retryAfter !== null && /^\d+$/.test(retryAfter.trim())
      ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS)
      : undefined;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (the loop then sees it aborted). */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** Checks a downloaded file against the hub's checksum; deletes it when it does not match. */
async function verify(path: string, file: HubFile): Promise<void> {
  const actual = await checksum(path, file);
  if (actual === (file.lfs?.oid ?? file.oid)) return;
  await Deno.remove(path);
  throw new PullError(
    `Checksum mismatch for ${file.path}: expected ${file.lfs?.oid ?? file.oid}, got ${actual}; ` +
      `the file was discarded and the model not installed`,
  );
}

/** True when `path` exists and is exactly the hub's file (an earlier pull installed it). */
async function matches(path: string, file: HubFile): Promise<boolean> {
  if (await sizeOf(path) !== file.size) return false;
  return await checksum(path, file) === (file.lfs?.oid ?? file.oid);
}

/** sha256 for LFS files; for small files the git blob sha1, sha1("blob <size>\0" + content). */
async function checksum(path: string, file: HubFile): Promise<string> {
  const size = await sizeOf(path);
  const hash: Hash = file.lfs ? createHash("sha256") : createHash("sha1").update(`blob ${size}\0`);
  const handle = await Deno.open(path, { read: true });
  // The readable stream closes the file when it ends.
  for await (const chunk of handle.readable) hash.update(chunk);
  return hash.digest("hex");
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await Deno.stat(path)).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

function request(url: string, init: RequestInit): Promise<Response> {
  return fetch(url, { ...init, headers: { "user-agent": "tolk", ...init.headers } });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
