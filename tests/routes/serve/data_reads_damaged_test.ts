/**
 * Glossary and memory reads on a database damaged past its first page answer 503
 * storage_unavailable, as the history list does (history_test.ts), never a 500.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDataStores } from "../../../storage/data_stores.ts";
import { DATABASE_FILE } from "../../../storage/database.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { withTranslationService as withService } from "../../support/translation_service.ts";

/** A data directory holding a glossary and enough memory to fill many pages; its glossary id. */
function seed(dataDir: string): string {
  const stores = openDataStores(dataDir);
  try {
    const entries = Array.from({ length: 300 }, (_, i) => ({
      sourceLang: "en",
      targetLang: "de",
      source: `Sentence number ${i} of the seed`,
      target: `Satz Nummer ${i} der Saat`,
    }));
    stores.memory.add(entries, "user");
    return stores.glossaries.create("terms", [{
      sourceLang: "en",
      targetLang: "de",
      entries: entries.map(({ source, target }) => ({ source, target })),
    }]).id;
  } finally {
    stores.close();
  }
}

const READS = [
  "/v1/glossaries",
  "/v1/glossaries/{id}",
  "/v1/glossaries/{id}/entries",
  "/v1/glossaries/00000000-0000-4000-8000-000000000000",
  "/v1/memory/entries",
  "/v1/memory/entries?q=number",
  "/v1/memory/export?format=tmx",
];

Deno.test("glossary and memory reads on a database damaged past its first page are 503 storage_unavailable", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "tolk-data-damaged-" });
  try {
    const id = seed(dataDir);
    // Page 1 (header and schema) stays readable: the service starts, and the rows cannot be read.
    const path = join(dataDir, DATABASE_FILE);
    Deno.writeFileSync(path, Deno.readFileSync(path).fill(0xff, 4096));
    await withService(async (service) => {
      const answers: Record<string, string> = {};
      for (const read of READS) {
        const response = await dataRequest(service, "GET", read.replace("{id}", id));
        const body = await response.json().catch(() => ({}));
        answers[read] = `${response.status} ${body?.error?.code}`;
      }
      assert.deepEqual(
        answers,
        Object.fromEntries(READS.map((read) => [read, "503 storage_unavailable"])),
      );
    }, { dataDir });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
