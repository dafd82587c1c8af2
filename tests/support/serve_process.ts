/**
 * A real `tolk serve` process for command-line tests, on a free port with its own settings file
 * and data directory and the committed fixture models.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "./temp_dir.ts";
import { startTolkServer, type TolkServer } from "./tolk_process.ts";
import { FIXTURE_MODELS_DIR } from "./translation_service.ts";

/** The variables that give a `tolk` command its own folders under `dir` and the fixture models. */
export function tolkFolders(dir: string): Record<string, string> {
  return {
    TOLK_CONFIG: join(dir, "settings.json"),
    TOLK_DATA_DIR: dir,
    TOLK_MODELS_DIR: FIXTURE_MODELS_DIR,
  };
}

/**
 * Runs `fn` while `tolk serve --port 0 <flags>` serves; `env` names its folders, for other
 * commands to reach the same service. The service must stop with exit code 0.
 *
 * @example
 * ```ts
 * await withServeProcess(["--host", "::1"], async (server, env) => { … });
 * ```
 */
export async function withServeProcess(
  flags: string[],
  fn: (server: TolkServer, env: Record<string, string>) => Promise<void>,
): Promise<void> {
  await withTempDir("tolk-serve-process-", async (dir) => {
    const env = tolkFolders(dir);
    const server = await startTolkServer(["serve", "--port", "0", ...flags], env);
    try {
      await fn(server, env);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
}
