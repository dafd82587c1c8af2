import assert from "node:assert/strict";
import { startInferDaemon, TINY_GGUF, waitForRequests } from "../support/infer_daemon.ts";
import { runTolkProcess, startTolkServer } from "../support/tolk_process.ts";

const BAD_FLAGS: Array<{ name: string; args: string[]; flag: string }> = [
  { name: "a missing --model", args: [], flag: "--model" },
  { name: "a non-numeric port", args: ["--port", "abc"], flag: "--port" },
  { name: "a port above 65535", args: ["--port", "70000"], flag: "--port" },
  { name: "zero threads", args: ["--threads", "0"], flag: "--threads" },
  {
    name: "zero concurrent requests",
    args: ["--max-concurrent-requests", "0"],
    flag: "--max-concurrent-requests",
  },
  {
    name: "a queue above 1024",
    args: ["--max-queued-requests", "1025"],
    flag: "--max-queued-requests",
  },
  {
    name: "a negative body limit",
    args: ["--max-request-bytes", "-1"],
    flag: "--max-request-bytes",
  },
  {
    name: "a fractional rate",
    args: ["--requests-per-minute", "1.5"],
    flag: "--requests-per-minute",
  },
  {
    name: "a CORS origin with a path",
    args: ["--cors-origin", "http://a.test/x"],
    flag: "--cors-origin",
  },
  {
    name: "a value for --expose-model-path",
    args: ["--expose-model-path=yes"],
    flag: "--expose-model-path",
  },
  { name: "an unknown flag", args: ["--gpu", "cuda"], flag: "--gpu" },
  { name: "a flag without its value", args: ["--port"], flag: "--port" },
];

for (const { name, args, flag } of BAD_FLAGS) {
  Deno.test(`tolk infer with ${name} exits 2 with one line naming ${flag}`, async () => {
    const model = flag === "--model" ? [] : ["--model", TINY_GGUF];
    const result = await runTolkProcess(["infer", ...model, ...args]);
    assert.equal(result.code, 2);
    const lines = result.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, result.stderr);
    assert.ok(lines[0].includes(flag), lines[0]);
    assert.equal(result.stdout, "");
  });
}

Deno.test("tolk infer on a port already in use exits 2 with only one stderr line naming it and the remedy", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = String((taken.addr as Deno.NetAddr).port);
    const result = await runTolkProcess(["infer", "--model", TINY_GGUF, "--port", port]);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `tolk infer: --port: 127.0.0.1:${port} is already in use; stop what listens there or pick another port with --port (0 picks a free one)\n`,
    );
    assert.equal(result.stdout, "");
  } finally {
    taken.close();
  }
});

Deno.test("tolk infer on a host name that does not resolve exits 2 with one line naming --host", async () => {
  const result = await runTolkProcess(
    ["infer", "--model", TINY_GGUF, "--host", "nonexistent.invalid", "--port", "0"],
    { SVC_API_KEY: "a-long-enough-test-key" },
  );
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^tolk infer: --host: cannot listen on nonexistent\.invalid:0 \(/);
  assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
  assert.equal(result.stdout, "");
});

Deno.test("tolk infer on a non-loopback host without SVC_API_KEY refuses to start (exit 2)", async () => {
  const result = await runTolkProcess(["infer", "--model", TINY_GGUF, "--host", "0.0.0.0"]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr.trimEnd().split("\n").length, 1);
  assert.match(result.stderr, /SVC_API_KEY/);
  assert.equal(result.stdout, "");
});

Deno.test("tolk infer refuses an SVC_API_KEY no request could present (white space, a trailing newline)", async () => {
  for (const key of ["two words", "from-a-secret-file\n"]) {
    const env = { SVC_API_KEY: key };
    // Started as a daemon first: one that listens (and would answer every request 401) is stopped.
    const outcome = await startTolkServer(["infer", "--model", TINY_GGUF, "--port", "0"], env)
      .then(async (server) => `listening (exit ${await server.stop()})`, String);
    assert.match(outcome, /exited before listening/, JSON.stringify(key));
    const result = await runTolkProcess(["infer", "--model", TINY_GGUF, "--port", "0"], env);
    assert.equal(result.code, 2);
    const lines = result.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], /SVC_API_KEY must be printable ASCII without white space/);
    assert.equal(result.stdout, "");
  }
});

Deno.test("tolk infer prints listening on http://127.0.0.1:PORT and exits 0 on SIGTERM", async () => {
  const daemon = await startInferDaemon({ args: ["--threads", "1"] });
  assert.match(daemon.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(daemon.stderr.some((line) => /model tiny ready \(cpu/.test(line)));
  assert.equal(await daemon.stop(), 0);
});

Deno.test("tolk infer on SIGTERM finishes the running generation, usage exact, then exits 0", async () => {
  const daemon = await startInferDaemon({ args: ["--threads", "1"] });
  const response = await fetch(`${daemon.baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 1000,
      stream: true,
      stream_options: { include_usage: true },
    }),
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = (await reader.read()).value ?? ""; // the stream runs: now stop the daemon
  let exited = false;
  daemon.exited.then(() => exited = true);
  const stopped = daemon.stop();
  while (!daemon.stderr.includes("shutting down")) await new Promise((go) => setTimeout(go, 5));
  // While the generation drains, the listener is closed: no new request is served (a health
  // check answered 200 while the model was being freed). "shutting down" is printed just before
  // the listener is closed (Deno closes it asynchronously), so a connection may still get in for
  // a moment on a loaded machine: refused within 5 s is what counts.
  const port = Number(new URL(daemon.baseUrl).port);
  const refusedBy = Date.now() + 5_000;
  let refused = false;
  while (!refused && Date.now() < refusedBy) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      await new Promise((go) => setTimeout(go, 10));
    } catch (error) {
      assert.ok(error instanceof Deno.errors.ConnectionRefused, String(error));
      refused = true;
    }
  }
  assert.ok(refused, "the listener was still open 5 s after shutting down");
  assert.ok(!exited, "the daemon was still draining");
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += chunk.value;
  }
  assert.match(text, /"completion_tokens":1000\b/);
  assert.match(text, /data: \[DONE\]/);
  assert.equal(await stopped, 0);
  assert.equal(daemon.stderr.filter((line) => line === "shutting down").length, 1);
});

Deno.test("tolk infer on SIGTERM also serves the request queued behind the running one", async () => {
  const daemon = await startInferDaemon({
    args: ["--threads", "1", "--max-concurrent-requests", "1"],
  });
  const ask = (maxTokens: number) =>
    fetch(`${daemon.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: maxTokens }),
    });
  const running = ask(600);
  await waitForRequests(daemon, "the first one in its slot", () => (n) => n.running === 1);
  const queued = ask(8);
  await waitForRequests(daemon, "the second one waiting for it", () => (n) => n.queued === 1);
  const stopped = daemon.stop();
  const [first, second] = await Promise.all([running, queued]);
  assert.equal(first.status, 200);
  assert.equal(second.status, 200, await second.clone().text());
  assert.equal((await second.json()).usage.completion_tokens, 8);
  await first.body?.cancel();
  assert.equal(await stopped, 0);
});

Deno.test("tolk infer whose drain time runs out ends every open request with a stopping error, then exits 0", async () => {
  // One slot and a long queue of answers as long as the context: far more work than the drain
  // time (about 2 s each here), so the deadline comes while generations run and wait.
  const daemon = await startInferDaemon({
    args: ["--threads", "1", "--max-concurrent-requests", "1", "--max-queued-requests", "64"],
  });
  const endings = Array.from({ length: 48 }, async () => {
    const response = await fetch(`${daemon.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    const text = await response.text();
    if (response.status === 503) return JSON.parse(text).error.code as string;
    assert.equal(response.status, 200, text);
    if (text.endsWith("data: [DONE]\n\n")) return "done";
    const last = text.trimEnd().split("\n\n").pop()!;
    return JSON.parse(last.replace(/^data: /, "")).error.code as string;
  }).map((ending) => ending.catch((error) => `cut (${error.message.split(":")[0]})`));
  let ended = 0;
  endings.forEach((ending) => ending.then(() => ended++));
  // Every request is in: running, queued or answered. `ended` is taken before the counts are
  // read, so a request answered meanwhile is not counted twice.
  await waitForRequests(daemon, "all 48 requests", () => {
    const answered = ended;
    return (n) => n.running + n.queued + answered === endings.length;
  });
  const code = await daemon.stop();
  const ends = await Promise.all(endings);
  assert.ok(ends.every((end) => end === "done" || end === "model_not_ready"), ends.join());
  assert.ok(ends.includes("model_not_ready"), "the deadline came while work was left");
  assert.equal(code, 0);
});
