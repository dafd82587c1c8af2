/**
 * The long run of the format fuzzer (tests/support/format_fuzzer.ts): mutated corpus documents
 * in every format and mode through the real app, engine-one an Ollama stand-in that passes texts
 * through (byte for byte) or upper-cases them (skeleton kept). Runs under the CPU lock in bursts.
 * Usage: deno task fuzz:formats [--engine passthrough|upper] [--requests 1000] [--seed 1]
 * Exits 1 when an oracle failed, printing each failure with its seed and case index (the case's
 * request is planCases({ seed, cases })[index].body).
 */
import { engineFunction, type FuzzEngine, fuzzService } from "../tests/support/format_fuzzer.ts";
import { startOllamaStandIn } from "../tests/support/ollama_stand_in.ts";
import { startTranslationService } from "../tests/support/translation_service.ts";

const flag = (name: string, fallback: string) =>
  Deno.args.includes(name) ? Deno.args[Deno.args.indexOf(name) + 1] : fallback;
const ENGINE = flag("--engine", "passthrough") as FuzzEngine;
const REQUESTS = Number(flag("--requests", "1000"));
const SEED = Number(flag("--seed", "1"));

const runner = startOllamaStandIn({ translate: engineFunction(ENGINE) });
const service = await startTranslationService({
  settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
});
const started = performance.now();
let failures: string[] = [];
try {
  failures = await fuzzService(service, {
    engine: ENGINE,
    seed: SEED,
    requests: REQUESTS,
    frames: Math.ceil(REQUESTS / 4),
  });
} finally {
  await service.stop();
  await runner.stop();
}
console.log(JSON.stringify({
  engine: ENGINE,
  seed: SEED,
  requests: REQUESTS,
  seconds: Math.round((performance.now() - started) / 1000),
  failures,
}));
// As bench/serve_fuzz.ts: the in-process service may keep the event loop alive after stop.
Deno.exit(failures.length > 0 ? 1 : 0);
