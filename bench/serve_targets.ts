/**
 * The servers `bench/serve_bench.ts` measures, one per process:
 *   tolk      — the full translation app (every middleware) with the bench echo engine;
 *   baseline  — a bare Hono app doing only the irreducible work of the same two endpoints;
 *   baseline-headers — the same bare app, also sending the two headers the contract requires on
 *               every answer (`Svc-API-Version`, `x-request-id`), to show what they cost alone.
 * Usage: deno run -A bench/serve_targets.ts tolk|baseline|baseline-headers CONFIG_PATH
 */
import { Hono } from "hono";
import { createTranslationApp } from "../app/translation_app.ts";
import { loadLanguageDetector } from "../detection/language_detector.ts";
import { EnginePipeline } from "../engines/engine_pipeline.ts";
import { API_VERSION_DATE } from "../schemas/translation.ts";
import { SettingsStore } from "../settings/settings_store.ts";
import { APP_VERSION } from "../version.ts";
import { createEchoEngine } from "./echo_engine.ts";

const [target, configPath] = Deno.args;
const detector = await loadLanguageDetector();
const engine = createEchoEngine();

function baselineApp(contractHeaders: boolean): Hono {
  const startedAt = performance.now();
  const app = new Hono();
  if (contractHeaders) {
    app.use(async (c, next) => {
      await next();
      c.res.headers.set("Svc-API-Version", API_VERSION_DATE);
      c.res.headers.set("x-request-id", crypto.randomUUID());
    });
  }
  app.get("/v1/health", (c) =>
    c.json({
      status: "ok",
      app: "tolk",
      version: APP_VERSION,
      api_version: "v1",
      uptime_ms: Math.round(performance.now() - startedAt),
      ready: true,
    }));
  app.post("/v1/translate", async (c) => {
    const body = await c.req.json();
    const detected = body.texts.map((text: string) => detector.detect(text));
    const outcome = await engine.translate({
      items: body.texts.map((text: string, i: number) => ({ text, source: detected[i].language })),
      target: body.target,
      mode: "paragraph",
      alternatives: false,
    });
    return c.json({ results: outcome.items });
  });
  return app;
}

const fetchHandler = target.startsWith("baseline")
  ? baselineApp(target === "baseline-headers").fetch
  : createTranslationApp({
    settings: new SettingsStore(configPath),
    detector,
    pipeline: new EnginePipeline([engine], {
      order: ["local-llm"],
      queues: { "local-llm": { concurrency: 64, maxWaiting: 1024 } },
    }),
    // Access lines still go to stderr (the bench sends it to /dev/null): their cost is counted.
  }).app.fetch;

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`),
}, fetchHandler);
