import assert from "node:assert/strict";
import { createInferenceApp } from "../../app/inference_app.ts";
import { LlamaRuntime } from "../../inference/llama_runtime.ts";
import { GenerationError, type GenerationParams } from "../../inference/generation.ts";
import { HealthSchema } from "../../schemas/openai.ts";
import { defaultAppOptions, NATIVE_SANITIZERS as NATIVE } from "../support/infer_app.ts";
import { TINY_GGUF } from "../support/infer_daemon.ts";

// node-llama-cpp keeps native handles and timers of its own between calls.

function params(fields: Partial<GenerationParams> = {}): GenerationParams {
  return {
    turns: [{ role: "user", text: "hi" }],
    temperature: 0,
    topP: 1,
    stop: [],
    format: { kind: "text" },
    maxTokens: 8,
    ...fields,
  };
}

function start(slots = 2, threads = 1) {
  return LlamaRuntime.start({ modelPath: TINY_GGUF, threads, slots, log: () => {} });
}

Deno.test({
  name: "LlamaRuntime loads in the background: loading, then ready with the file's id",
  ...NATIVE,
  async fn() {
    const runtime = start();
    try {
      assert.equal(runtime.state.phase, "loading");
      assert.equal(runtime.state.modelStatus, "loading");
      await runtime.loaded;
      const state = runtime.state;
      assert.equal(state.phase, "ready");
      assert.equal(state.modelStatus, "valid");
      assert.equal(state.modelId, "tiny");
      assert.equal(state.backend, "cpu");
      assert.ok(state.contextSize! >= 2048);
    } finally {
      await runtime.dispose();
    }
  },
});

Deno.test({
  name: "the app answers /health 503 loading and chat 503 model_not_ready while loading",
  ...NATIVE,
  async fn() {
    const runtime = start();
    try {
      const app = createInferenceApp({
        ...defaultAppOptions(TINY_GGUF),
        runtime,
        modelPath: TINY_GGUF,
        endpoint: () => "http://127.0.0.1:0",
        log: () => {},
      });
      const health = await app.request("/health", { headers: { host: "localhost" } });
      assert.equal(health.status, 503);
      assert.equal(HealthSchema.parse(await health.json()).status, "loading");
      await assert.rejects(runtime.prepare(params()), (error: unknown) => {
        assert.ok(error instanceof GenerationError);
        return error.failure.kind === "model_not_ready";
      });
    } finally {
      await runtime.dispose();
    }
  },
});

Deno.test({
  name: "an abort during generation stops it at once",
  ...NATIVE,
  async fn() {
    const runtime = start();
    try {
      await runtime.loaded;
      const abort = new AbortController();
      const prepared = await runtime.prepare(params({ maxTokens: 1500 }));
      const result = await runtime.generate(prepared, {
        signal: abort.signal,
        onText: () => abort.abort(),
      });
      assert.equal(result.stopReason, "abort");
      // The worker reads the cancel at its next step once the message is posted; meanwhile it
      // decodes on (3-9 of the tiny model's ~0.1 ms steps here, 28 once), not to max_tokens.
      assert.ok(result.completionTokens < 100, `${result.completionTokens} tokens after abort`);
    } finally {
      await runtime.dispose();
    }
  },
});

Deno.test({
  name: "a prompt longer than the context is refused before generation",
  ...NATIVE,
  async fn() {
    const runtime = start();
    try {
      await runtime.loaded;
      const long = params({ turns: [{ role: "user", text: "zq xj ".repeat(1500) }], maxTokens: 1 });
      await assert.rejects(runtime.prepare(long), (error: unknown) => {
        assert.ok(error instanceof GenerationError);
        assert.equal(error.failure.kind, "context_overflow");
        return true;
      });
    } finally {
      await runtime.dispose();
    }
  },
});

Deno.test({
  name: "generations batched together give the greedy text of each one alone, at 1 and 2 threads",
  ...NATIVE,
  async fn() {
    const prompts = ["hi", "hello there", "a longer prompt about rivers and hills", "x"];
    const texts: Record<string, string[]> = {};
    for (const threads of [1, 2]) {
      const runtime = start(4, threads);
      try {
        await runtime.loaded;
        const prepared = await Promise.all(
          prompts.map((text) => runtime.prepare(params({ turns: [{ role: "user", text }] }))),
        );
        const alone = [];
        for (const each of prepared) alone.push((await runtime.generate(each)).text);
        const together = await Promise.all(prepared.map((each) => runtime.generate(each)));
        assert.deepEqual(together.map((result) => result.text), alone);
        texts[threads] = alone;
      } finally {
        await runtime.dispose();
      }
    }
    assert.deepEqual(texts[2], texts[1]);
  },
});

Deno.test({
  name: "slots get KV cells of their own within the memory budget, share one context's beyond it",
  ...NATIVE,
  async fn() {
    const prompts = ["hi", "hello there", "a longer prompt about rivers and hills"];
    const texts: string[][] = [];
    // The tiny model's streams take a few MB: within the default budget; 1 byte is beyond any.
    for (const [budget, layout] of [[undefined, "per slot"], [1, "shared"]] as const) {
      const lines: string[] = [];
      const runtime = LlamaRuntime.start({
        modelPath: TINY_GGUF,
        threads: 1,
        slots: 3,
        kvStreamsBudget: budget,
        log: (line) => lines.push(line),
      });
      try {
        await runtime.loaded;
        const ready = lines.find((line) => line.includes(" ready ("));
        const expected = Deno.build.os === "linux" ? layout : "shared";
        assert.ok(ready?.includes(`3 slots, KV cells ${expected},`), String(ready));
        const prepared = await Promise.all(
          prompts.map((text) => runtime.prepare(params({ turns: [{ role: "user", text }] }))),
        );
        texts.push((await Promise.all(prepared.map((each) => runtime.generate(each))))
          .map((result) => result.text));
      } finally {
        await runtime.dispose();
      }
    }
    assert.deepEqual(texts[1], texts[0]);
  },
});

Deno.test({
  name: "dispose during a generation ends it with abort and frees the model",
  ...NATIVE,
  async fn() {
    const runtime = start();
    await runtime.loaded;
    const prepared = await runtime.prepare(params({ maxTokens: 1500 }));
    let started!: () => void;
    const firstText = new Promise<void>((resolve) => started = resolve);
    const running = runtime.generate(prepared, { onText: () => started() });
    await firstText;
    await runtime.dispose();
    const result = await running;
    assert.equal(result.stopReason, "abort");
    assert.ok(result.completionTokens < 1500);
  },
});

Deno.test({
  name: "a missing model file ends in error with status missing and a reason",
  ...NATIVE,
  async fn() {
    const runtime = LlamaRuntime.start({
      modelPath: "/nonexistent/x.gguf",
      threads: 1,
      slots: 1,
      log: () => {},
    });
    await runtime.loaded;
    const state = runtime.state;
    assert.equal(state.phase, "error");
    assert.equal(state.modelStatus, "missing");
    assert.match(state.reason!, /\/nonexistent\/x\.gguf/);
    assert.equal(state.modelId, "x");
    await runtime.dispose();
  },
});

Deno.test({
  name: "LlamaRuntime.dispose called again settles only with the first, after the load",
  ...NATIVE,
  async fn() {
    // `tolk infer` disposes twice: once in its drain, once before it exits; the second must not
    // let the daemon exit while the first still waits for the load (its failure unsaid).
    const runtime = start();
    let loadSettled = false;
    runtime.loaded.then(() => loadSettled = true);
    const first = runtime.dispose({ drainMs: 1_000 });
    await runtime.dispose();
    assert.ok(loadSettled, "the second dispose settled while the model was loading");
    await first;
  },
});
