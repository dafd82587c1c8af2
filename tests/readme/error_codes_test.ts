/**
 * The error codes the README names with their status (`400 invalid_request`, 503
 * `engine_unavailable`, 408 `request_timeout` …) are codes of the service's error table with that
 * status: a reader matches on them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { INFERENCE_ERROR_CODES } from "../../errors/inference_errors.ts";
import { ERROR_CODES } from "../../errors/translation_errors.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** Every "status code" pair the README writes, as `413 batch_too_large` / `payload_too_large`. */
async function readmeStatusCodes(): Promise<Array<[number, string]>> {
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  const pairs: Array<[number, string]> = [];
  const written = /(?<![\d,])(?:`(\d{3}) ([a-z_]+)`|(\d{3}) `([a-z_]+)`)(?: \/ `([a-z_]+)`)?/g;
  for (const [, status, code, status2, code2, alternative] of readme.matchAll(written)) {
    pairs.push([Number(status ?? status2), code ?? code2]);
    if (alternative) pairs.push([Number(status ?? status2), alternative]);
  }
  return pairs;
}

Deno.test("every error code the README names with a status has that status in the service", async () => {
  const pairs = await readmeStatusCodes();
  assert.ok(pairs.length >= 12, JSON.stringify(pairs));
  const tables: Array<Record<string, { status: number }>> = [ERROR_CODES, INFERENCE_ERROR_CODES];
  const wrong = pairs.filter(([status, code]) =>
    !tables.some((table) => table[code]?.status === status)
  );
  assert.deepEqual(wrong, []);
});
