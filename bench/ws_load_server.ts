/**
 * The server of `bench/ws_load_bench.ts`: the real translation app with the built-in engine on the
 * committed tiny model, on 127.0.0.1:0. Prints `URL TOKEN` on its first line, then serves until
 * SIGTERM.
 */
import { startTranslationService } from "../tests/support/translation_service.ts";

const service = await startTranslationService();
console.log(`${service.url} ${service.token}`);
Deno.addSignalListener("SIGTERM", async () => {
  await service.stop();
  Deno.exit(0);
});
