/**
 * A translation service with one glossary made over HTTP, for the tests of `options.glossary_id`.
 */
import { GlossarySchema } from "../../schemas/glossary.ts";
import { dataRequest } from "./data_requests.ts";
import { expectBody } from "./http_assertions.ts";
import { startTranslationService, type TestService } from "./translation_service.ts";

/**
 * Makes a glossary of one dictionary on `service`: `entries` as TSV for the pair.
 *
 * @example
 * ```ts
 * const { glossary_id } = await createGlossary(service, "Names", ["en", "de"], "tolk\t\n");
 * ```
 */
export async function createGlossary(
  service: TestService,
  name: string,
  [sourceLang, targetLang]: [string, string],
  entries: string,
): Promise<{ glossary_id: string }> {
  return await expectBody(
    await dataRequest(service, "POST", "/v1/glossaries", {
      name,
      dictionaries: [{
        source_lang: sourceLang,
        target_lang: targetLang,
        entries,
        entries_format: "tsv",
      }],
    }),
    201,
    GlossarySchema,
  );
}

/**
 * Runs `fn` against a fresh service (engines as shipped: the built-in one on the tiny model) with
 * a glossary of one dictionary, `entries` as TSV for the pair.
 */
export async function withBuiltInGlossary(
  name: string,
  pair: [string, string],
  entries: string,
  fn: (service: TestService, glossary: { glossary_id: string }) => Promise<void>,
): Promise<void> {
  const service = await startTranslationService();
  try {
    await fn(service, await createGlossary(service, name, pair, entries));
  } finally {
    await service.stop();
  }
}
