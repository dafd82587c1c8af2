/**
 * The history and the translation memory are two stores (DECISIONS.md, second round): a request
 * writes the memory only when it asks (`options.memory: true`), the memory has its own delete,
 * and clearing the history or turning it off leaves the memory as it is. A privacy user reading
 * "clearing the history erases the text" must learn that from the README where it says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryPageSchema } from "../../../schemas/memory.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { translateWithMemory } from "../../support/memory_requests.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import type { TestService } from "../../support/translation_service.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;

async function memorySources(service: TestService): Promise<string[]> {
  const page = await expectBody(
    await dataRequest(service, "GET", "/v1/memory/entries"),
    200,
    MemoryPageSchema,
  );
  return page.data.map((entry) => entry.source);
}

Deno.test("DELETE /v1/history leaves the translations a request stored in the memory", async () => {
  await withStandInService({}, async (service) => {
    await translateWithMemory(service, ["The invoice is overdue."]);
    const cleared = await dataRequest(service, "DELETE", "/v1/history");
    assert.equal(cleared.status, 204);
    assert.deepEqual(await memorySources(service), ["The invoice is overdue."]);
  });
});

Deno.test("history.enabled false still stores the translations of a request with memory: true", async () => {
  await withStandInService({}, async (service) => {
    service.store.update((settings) => settings.history.enabled = false);
    await translateWithMemory(service, ["The invoice is overdue."]);
    assert.deepEqual(await memorySources(service), ["The invoice is overdue."]);
  });
});

/** The README's paragraph on the history switch and on erasing, white space as one space. */
async function erasingParagraph(): Promise<string> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const paragraph = readme.split(/\n\s*\n/).find((text) =>
    text.startsWith('`"history": {"enabled": false}`')
  );
  assert.ok(paragraph, "the README has the paragraph on the history switch and erasing");
  return paragraph.replace(/\s+/g, " ");
}

Deno.test("the README says where it describes erasing the history that the memory is separate and how to erase it", async () => {
  const paragraph = await erasingParagraph();
  assert.match(paragraph, /clearing the history leaves the translation memory as it is/i);
  assert.match(paragraph, /DELETE \/v1\/memory\/entries\/\{id\}/);
});
