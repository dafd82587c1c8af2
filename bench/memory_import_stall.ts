/**
 * How long a large TMX import holds the service's other requests: a service on loopback (the
 * tests' in-process one, so the timer below shares its event loop), one import of N synthetic
 * units, and the longest gap of a 10 ms interval timer while it runs.
 *
 * Run: deno run -A bench/memory_import_stall.ts [UNITS]   (default 200,000; BENCHMARKS.md)
 */
import { startTranslationService } from "../tests/support/translation_service.ts";

const n = Number(Deno.args[0] ?? 200000);
let body =
  '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="x" creationtool="x" creationtoolversion="1"/><body>\n';
const parts: string[] = [];
for (let i = 0; i < n; i++) {
  parts.push(
    `<tu><tuv xml:lang="en"><seg>Sentence number ${i} about the weather today</seg></tuv><tuv xml:lang="de"><seg>Satz Nummer ${i} über das Wetter heute</seg></tuv></tu>`,
  );
}
body += parts.join("\n") + "\n</body></tmx>";
const service = await startTranslationService();
let maxLag = 0;
let last = performance.now();
const timer = setInterval(() => {
  const now = performance.now();
  maxLag = Math.max(maxLag, now - last - 10);
  last = now;
}, 10);
const t = performance.now();
const response = await fetch(`${service.url}/v1/memory/import`, {
  method: "POST",
  headers: { "x-svc-token": service.token, "content-type": "application/x-tmx+xml" },
  body,
});
const answer = await response.text();
console.log(
  `units ${n} MB ${(body.length / 1e6).toFixed(1)} total ${
    Math.round(performance.now() - t)
  } ms, longest stall ${Math.round(maxLag)} ms`,
  answer,
);
clearInterval(timer);
await service.stop();
