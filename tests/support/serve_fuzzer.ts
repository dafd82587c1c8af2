/**
 * A seeded mutation fuzzer for `tolk serve` (issue 15, points 11 and 12): it mutates valid
 * requests (bodies, headers, methods, paths) and WebSocket frames, sends them to a running
 * service and checks the oracles on every answer:
 * - no 500 unless it is a genuine `internal_error` that the service logged as unexpected;
 * - every error body is exactly the service's ErrorResponse (strict schema), every success body
 *   is JSON where the route answers JSON;
 * - `x-request-id` on every HTTP answer; one reply per WebSocket frame, in order;
 * - `/v1/health` answers 200 throughout (its slowest answer is reported).
 * The same seed sends the same requests, so a failure is reproduced by its seed and index.
 */
import { ErrorResponseSchema, TranslateResponseSchema } from "../../schemas/translation.ts";
import { seededRandom } from "./seeded_random.ts";

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)];

/** Texts that have broken services before: marks, controls, surrogates, bidi, long runs. */
const ODD_TEXTS = [
  "\u0300",
  "\u0000",
  "\ud800",
  "\udfff x",
  "\u202e olleh",
  "a\r\nb",
  "<b>bold</b> &amp;",
  "{{x}} %s %n",
  "😀".repeat(50),
  "x".repeat(9000),
  "",
  " ",
  "Good morning, my friend.",
  "Bonjour tout le monde",
  "今天天气很好",
];
const ODD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  Number.MAX_SAFE_INTEGER,
  "",
  "auto",
  "und",
  "zh-Hans",
  "xx",
  [],
  {},
  [[[]]],
  { __proto__: null },
  "constructor",
  "__proto__",
];

/** Valid requests the mutations start from: [method, path, body]. */
const SEEDS: Array<[string, string, unknown]> = [
  ["POST", "/v1/translate", { target: "en", texts: ["Bonjour tout le monde"] }],
  ["POST", "/v1/translate", { source: "en", target: "en", texts: ["hello", "world"] }],
  ["POST", "/v1/translate", {
    target: "de",
    texts: ["Good morning"],
    mode: "selection",
    format: "html",
    options: { engine: "local-llm", return_alternatives: true, preserve_formatting: true },
  }],
  ["POST", "/v1/translate", {
    source: "en",
    target: "fr",
    format: "xml",
    texts: ['<doc><par>Press <b>Save</b> <x id="1"/> now.</par><note>Keep</note></doc>'],
    options: {
      ignore_tags: ["note"],
      splitting_tags: ["x"],
      non_splitting_tags: ["par"],
      outline_detection: false,
    },
  }],
  ["POST", "/v1/detect", { texts: ["Guten Abend", "こんにちは"] }],
  ["POST", "/v1/glossaries", {
    name: "fuzz",
    dictionaries: [{ source: "en", target: "de", entries: "a\tb\n", entries_format: "tsv" }],
  }],
  ["GET", "/v1/glossaries", undefined],
  ["GET", "/v1/history?limit=5", undefined],
  ["GET", "/v1/capabilities", undefined],
  ["DELETE", "/v1/history/tr_x", undefined],
  ["PATCH", "/v1/glossaries/g_x", { name: "renamed" }],
];

function mutateValue(random: Random, value: unknown, depth = 0): unknown {
  const roll = random();
  if (roll < 0.15) return pick(random, ODD_VALUES);
  if (roll < 0.25) return pick(random, ODD_TEXTS);
  if (Array.isArray(value)) {
    const copy = value.map((
      item,
    ) => (random() < 0.3 ? mutateValue(random, item, depth + 1) : item));
    if (random() < 0.2) copy.push(pick(random, ODD_TEXTS));
    if (random() < 0.05) return Array(129 + Math.floor(random() * 50)).fill("a");
    return copy;
  }
  if (value && typeof value === "object") {
    const copy: Record<string, unknown> = { ...value as Record<string, unknown> };
    for (const key of Object.keys(copy)) {
      const r = random();
      if (r < 0.15) delete copy[key];
      else if (r < 0.5) copy[key] = mutateValue(random, copy[key], depth + 1);
    }
    if (random() < 0.1) copy[pick(random, ["extra", "__proto__", "constructor", "texts"])] = 1;
    return copy;
  }
  if (typeof value === "string" && random() < 0.5) return value + pick(random, ODD_TEXTS);
  return depth < 3 && random() < 0.1 ? [value] : value;
}

function deepNesting(random: Random): string {
  const depth = 1000 + Math.floor(random() * 20000);
  return "[".repeat(depth) + "]".repeat(random() < 0.5 ? depth : depth - 1);
}

/** The raw body of a mutated request: JSON-level, then sometimes byte-level damage. */
function mutateBody(random: Random, body: unknown): string | Uint8Array | undefined {
  if (body === undefined && random() < 0.7) return undefined;
  if (random() < 0.03) return deepNesting(random);
  let text = JSON.stringify(random() < 0.85 ? mutateValue(random, body) : body) ?? "";
  const roll = random();
  if (roll < 0.08) text = text.slice(0, Math.floor(random() * text.length));
  else if (roll < 0.14) {
    const bytes = new TextEncoder().encode(text);
    for (let i = 0; i < 1 + random() * 4; i++) {
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    }
    return bytes;
  } else if (roll < 0.17) text = text.replace(/"/, "'");
  return text;
}

function mutatePath(random: Random, path: string): string {
  const roll = random();
  if (roll < 0.7) return path;
  return pick(random, [
    `${path}/`,
    `${path}%00`,
    `${path}%0a%0dX`,
    `${path}?%ff=%fe`,
    "/v1/../v1/health",
    "/v1/translate/extra",
    `/v1/${"a".repeat(3000)}`,
    "/v1/glossaries/%2e%2e",
    "/v1/history?limit=-1&offset=abc",
    "/v1/history?limit=99999999999999999999",
    "/v1/ws/translate",
  ]);
}

function mutateHeaders(random: Random, token: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const auth = random();
  if (auth < 0.75) headers["x-svc-token"] = token;
  else if (auth < 0.85) headers.authorization = `Bearer ${token}`;
  else if (auth < 0.9) {
    headers.authorization = pick(random, ["Bearer", "Basic eA==", `bearer  ${token}x`]);
  } else if (auth < 0.95) headers["x-svc-token"] = token.slice(1);
  if (random() < 0.85) headers["content-type"] = "application/json";
  else {
    headers["content-type"] = pick(random, [
      "text/plain",
      "application/json; charset=latin1",
      "multipart/form-data; boundary=x",
      "application/x-www-form-urlencoded",
      "",
    ]);
  }
  if (random() < 0.2) headers["x-svc-client"] = pick(random, ["fuzz", "é".repeat(300), "a\tb"]);
  if (random() < 0.05) headers.origin = pick(random, ["http://evil.example", "null"]);
  if (random() < 0.05) headers.host = pick(random, ["evil.example", "127.0.0.1:1", "localhost"]);
  if (random() < 0.05) headers["x-request-id"] = pick(random, ["fuzz-id", "x".repeat(500)]);
  if (random() < 0.05) headers["accept-encoding"] = "gzip, br, zstd";
  return headers;
}

/** A service under fuzzing. */
export interface FuzzTarget {
  url: string;
  wsUrl: string;
  token: string;
  /** Log lines written so far (to tell a genuine, logged internal_error). */
  logs: readonly string[];
}

/** Figures of one run. */
export interface FuzzReport {
  requests: number;
  frames: number;
  statuses: Record<number, number>;
  healthChecks: number;
  healthWorstMs: number;
  failures: string[];
}

/** Options of {@link fuzzService}. */
export interface FuzzOptions {
  seed: number;
  /** HTTP requests to send. */
  requests: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** WebSocket frames per HTTP request (default 0.25: one frame every four requests). */
  framesPerRequest?: number;
  /** Stop at this many failures (default 20). */
  maxFailures?: number;
}

/** Runs the fuzzer against `target` and reports every oracle failure. */
export async function fuzzService(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const random = seededRandom(options.seed);
  const report: FuzzReport = {
    requests: 0,
    frames: 0,
    statuses: {},
    healthChecks: 0,
    healthWorstMs: 0,
    failures: [],
  };
  const maxFailures = options.maxFailures ?? 20;
  const fail = (what: string) => {
    if (report.failures.length < maxFailures) report.failures.push(what);
  };
  const plans = Array.from({ length: options.requests }, (_, index) => {
    const [method, path, body] = pick(random, SEEDS);
    const mutatedMethod = random() < 0.05
      ? pick(random, ["PUT", "DELETE", "OPTIONS", "GET"])
      : method;
    return {
      index,
      method: mutatedMethod,
      path: mutatePath(random, path),
      headers: mutateHeaders(random, target.token),
      body: mutatedMethod === "GET" || mutatedMethod === "OPTIONS"
        ? undefined
        : mutateBody(random, body),
    };
  });
  const frames = Array.from(
    { length: Math.floor(options.requests * (options.framesPerRequest ?? 0.25)) },
    () => {
      const [, , body] = pick(random, SEEDS.slice(0, 3));
      const raw = mutateBody(random, body) ?? "";
      return typeof raw === "string" ? raw : raw.buffer as ArrayBuffer;
    },
  );

  let next = 0;
  const worker = async () => {
    while (next < plans.length && report.failures.length < maxFailures) {
      const plan = plans[next++];
      await checkRequest(target, plan, report, fail);
      if (plan.index % 50 === 0) await checkHealth(target, report, fail);
    }
  };
  await Promise.all([
    ...Array.from({ length: options.concurrency ?? 8 }, worker),
    fuzzFrames(target, frames, report, fail),
  ]);
  await checkHealth(target, report, fail);
  return report;
}

interface Plan {
  index: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

async function checkRequest(
  target: FuzzTarget,
  plan: Plan,
  report: FuzzReport,
  fail: (what: string) => void,
): Promise<void> {
  const where = `request ${plan.index} ${plan.method} ${plan.path.slice(0, 80)}`;
  let response: Response;
  try {
    response = await fetch(`${target.url}${plan.path}`, {
      method: plan.method,
      headers: plan.headers,
      body: plan.body as BodyInit | undefined,
    });
  } catch (error) {
    fail(`${where}: no answer (${(error as Error).message})`);
    return;
  }
  report.requests++;
  report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
  const requestId = response.headers.get("x-request-id");
  if (!requestId) fail(`${where}: ${response.status} without x-request-id`);
  const text = await response.text();
  if (response.status < 400) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(`${where}: ${response.status} body is not JSON: ${text.slice(0, 120)}`);
    return;
  }
  const parsed = ErrorResponseSchema.safeParse(body);
  if (!parsed.success) {
    fail(`${where}: ${response.status} body is not an ErrorResponse: ${text.slice(0, 200)}`);
    return;
  }
  if (response.status >= 500 && response.status !== 503) {
    const logged = requestId !== null &&
      target.logs.some((line) => line.startsWith(`${requestId} unexpected`));
    if (parsed.data.error.code !== "internal_error" || !logged) {
      fail(`${where}: ${response.status} ${parsed.data.error.code} not a logged internal_error`);
    } else fail(`${where}: internal_error (logged): ${parsed.data.error.message}`);
  }
}

async function checkHealth(
  target: FuzzTarget,
  report: FuzzReport,
  fail: (what: string) => void,
): Promise<void> {
  const started = performance.now();
  try {
    const response = await fetch(`${target.url}/v1/health`, {
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    if (response.status !== 200) fail(`health answered ${response.status}`);
  } catch (error) {
    fail(`health not answered: ${(error as Error).message}`);
  }
  report.healthChecks++;
  report.healthWorstMs = Math.max(report.healthWorstMs, performance.now() - started);
}

/** Sends mutated frames on one socket, reading replies as it goes (a reply per frame, in order). */
async function fuzzFrames(
  target: FuzzTarget,
  frames: Array<string | ArrayBuffer>,
  report: FuzzReport,
  fail: (what: string) => void,
): Promise<void> {
  if (frames.length === 0) return;
  const socket = new WebSocket(`${target.wsUrl}/v1/ws/translate?token=${target.token}`);
  const replies: unknown[] = [];
  let wake = () => {};
  socket.onmessage = (event) => {
    replies.push(typeof event.data === "string" ? event.data : "(binary)");
    wake();
  };
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener("close", resolve));
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("WebSocket failed to open"));
  });
  for (let i = 0; i < frames.length; i += 8) {
    const batch = frames.slice(i, i + 8);
    for (const frame of batch) socket.send(frame);
    while (replies.length < Math.min(i + 8, frames.length)) {
      const arrived = new Promise<void>((resolve) => (wake = resolve));
      const ended = await Promise.race([arrived.then(() => false), closed.then(() => true)]);
      if (ended) {
        fail(`WebSocket closed after ${replies.length} of ${frames.length} replies`);
        return;
      }
    }
  }
  report.frames = replies.length;
  for (const [index, reply] of replies.entries()) {
    let body: unknown;
    try {
      body = JSON.parse(reply as string);
    } catch {
      fail(`frame ${index}: reply is not JSON`);
      continue;
    }
    if (!TranslateResponseSchema.safeParse(body).success) {
      const error = ErrorResponseSchema.safeParse(body);
      if (!error.success) {
        fail(`frame ${index}: reply is neither a translation nor an ErrorResponse`);
      } else if (error.data.error.code === "internal_error") fail(`frame ${index}: internal_error`);
    }
  }
  socket.close(1000);
  await closed;
}
