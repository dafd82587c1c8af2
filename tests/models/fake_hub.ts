/**
 * A local stand-in for the Hugging Face hub (an external service), serving the fixture models in
 * the hub's URL layout: the tree API, `/{id}/resolve/main/{path}` with Range and ETag, and
 * injectable faults (a connection cut mid-file, corrupted bytes, a redirect to another host).
 */
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";

/** The fixture models directory the fake hub publishes. */
export const FIXTURE_MODELS = fileURLToPath(new URL("../fixtures/models/", import.meta.url));

/** Faults and a request log, changeable while the server runs. */
export interface FakeHubControls {
  /** Cut the connection of the next `count` downloads of `path` after `bytes` bytes. */
  cut?: { path: string; bytes: number; count: number };
  /**
   * Answer the next `count` downloads of `path` with `status` (and `Retry-After` when given), as
   * a busy or failing CDN does.
   */
  refuse?: { path: string; status: number; count: number; retryAfter?: string };
  /** Serve this path with one byte changed (the tree keeps the true checksum). */
  corrupt?: string;
  /** Answer file downloads with a 302 to this origin (a CDN host), which serves them itself. */
  redirectTo?: string;
  /** Files the tree lists besides the fixture's, by hub path (as a hostile mirror could). */
  extraFiles?: Record<string, Uint8Array<ArrayBuffer>>;
  /** Every request as `METHOD path [range]`. */
  log: string[];
}

/** A running fake hub. */
export interface FakeHub {
  endpoint: string;
  controls: FakeHubControls;
  close(): Promise<void>;
}

interface Entry {
  type: "file";
  path: string;
  size: number;
  oid: string;
  lfs?: { oid: string; size: number; pointerSize: number };
}

/**
 * Starts the fake hub on 127.0.0.1, port 0. `publishedAs` serves fixture models under other ids
 * too (a public id → a fixture id), so a command naming a real model can run as written.
 */
export function startFakeHub(publishedAs: Readonly<Record<string, string>> = {}): FakeHub {
  const controls: FakeHubControls = { log: [] };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handle(request, controls, (id) => publishedAs[id] ?? id),
  );
  return {
    endpoint: `http://127.0.0.1:${server.addr.port}`,
    controls,
    close: () => server.shutdown(),
  };
}

async function handle(
  request: Request,
  controls: FakeHubControls,
  fixtureOf: (id: string) => string,
): Promise<Response> {
  const url = new URL(request.url);
  const range = request.headers.get("range");
  controls.log.push(`${request.method} ${url.pathname}${range ? ` ${range}` : ""}`);
  const tree = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/main$/.exec(url.pathname);
  if (tree) {
    const entries = await listEntries(fixtureOf(tree[1]));
    for (const [path, bytes] of Object.entries(controls.extraFiles ?? {})) {
      entries?.push({ type: "file", path, size: bytes.length, oid: gitBlobSha1(bytes) });
    }
    return entries ? Response.json(entries) : Response.json({ error: "Repository not found" }, {
      status: 404,
    });
  }
  // By last segment: the client's URL parser may have folded a `..` of the listed path.
  const extra = Object.entries(controls.extraFiles ?? {}).find(([name]) =>
    url.pathname.endsWith(`/${name.split("/").at(-1)}`)
  );
  if (extra) return new Response(extra[1]);
  const resolve = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(url.pathname);
  if (!resolve) return new Response("not found", { status: 404 });
  const [, id, path] = resolve;
  if (controls.redirectTo && !url.searchParams.has("cdn")) {
    const location = `${controls.redirectTo}${url.pathname}?cdn=1`;
    return new Response(null, { status: 302, headers: { location } });
  }
  const refuse = controls.refuse;
  if (refuse && refuse.path === path && refuse.count > 0) {
    refuse.count--;
    const headers: Record<string, string> = refuse.retryAfter === undefined
      ? {}
      : { "retry-after": refuse.retryAfter };
    return new Response("Service Unavailable", { status: refuse.status, headers });
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await Deno.readFile(`${FIXTURE_MODELS}${fixtureOf(id)}/${path}`);
  } catch {
    return new Response("Entry not found", { status: 404 });
  }
  if (controls.corrupt === path) {
    bytes = bytes.slice();
    bytes[bytes.length >> 1] ^= 0xff;
  }
  const etag = `"${sha256(bytes)}"`;
  const start = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
  if (start >= bytes.length && bytes.length > 0) {
    return new Response(null, {
      status: 416,
      headers: { "content-range": `bytes */${bytes.length}` },
    });
  }
  const body = bytes.slice(start);
  const headers: Record<string, string> = { etag, "accept-ranges": "bytes" };
  if (range) headers["content-range"] = `bytes ${start}-${bytes.length - 1}/${bytes.length}`;
  const cut = controls.cut;
  if (cut && cut.path === path && cut.count > 0) {
    cut.count--;
    return new Response(brokenStream(body.subarray(0, cut.bytes)), {
      status: range ? 206 : 200,
      headers: { ...headers, "content-length": String(body.length) },
    });
  }
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** Sends `head`, then fails: the server drops the connection mid-body. */
function brokenStream(head: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(head.slice());
    },
    pull(controller) {
      // Ending short of the announced content-length makes the server drop the connection.
      controller.close();
    },
  });
}

async function listEntries(id: string): Promise<Entry[] | null> {
  const root = `${FIXTURE_MODELS}${id}`;
  const entries: Entry[] = [];
  try {
    await walk(root, "", entries);
  } catch {
    return null;
  }
  return entries.sort((a, b) => a.path.localeCompare(b.path));
}

async function walk(root: string, prefix: string, entries: Entry[]): Promise<void> {
  for await (const item of Deno.readDir(`${root}/${prefix}`)) {
    const path = prefix ? `${prefix}/${item.name}` : item.name;
    if (item.isDirectory) {
      await walk(root, path, entries);
      continue;
    }
    const bytes = await Deno.readFile(`${root}/${path}`);
    if (path.endsWith(".onnx")) {
      // LFS files: the tree carries the content's sha256; the oid is that of the pointer file.
      const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${
        sha256(bytes)
      }\nsize ${bytes.length}\n`;
      entries.push({
        type: "file",
        path,
        size: bytes.length,
        oid: gitBlobSha1(new TextEncoder().encode(pointer)),
        lfs: { oid: sha256(bytes), size: bytes.length, pointerSize: pointer.length },
      });
    } else {
      entries.push({ type: "file", path, size: bytes.length, oid: gitBlobSha1(bytes) });
    }
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function gitBlobSha1(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}
