import assert from "node:assert/strict";
import { startInferDaemon, TINY_GGUF } from "../support/infer_daemon.ts";
import { runTolkProcess } from "../support/tolk_process.ts";

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

Deno.test("tolk infer on a non-loopback host without SVC_API_KEY refuses to start (exit 2)", async () => {
  const result = await runTolkProcess(["infer", "--model", TINY_GGUF, "--host", "0.0.0.0"]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr.trimEnd().split("\n").length, 1);
  assert.match(result.stderr, /SVC_API_KEY/);
  assert.equal(result.stdout, "");
});

Deno.test("tolk infer prints listening on http://127.0.0.1:PORT and exits 0 on SIGTERM", async () => {
  const daemon = await startInferDaemon({ args: ["--threads", "1"] });
  assert.match(daemon.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(daemon.stderr.some((line) => /model tiny ready \(cpu/.test(line)));
  assert.equal(await daemon.stop(), 0);
});
