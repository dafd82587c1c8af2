/** deepl-node, the official DeepL client, pointed at a service's DeepL route. */
import * as deepl from "deepl-node";

/**
 * deepl-node's client on the service's DeepL route, with the service's token as its key (or
 * `key`, to try another).
 */
export function deeplClient(
  service: { url: string; token: string },
  key = service.token,
): deepl.DeepLClient {
  return new deepl.DeepLClient(key, {
    serverUrl: `${service.url}/v1/compat/deepl`,
    maxRetries: 0,
    // The first translation starts the built-in model worker, which takes seconds on a loaded
    // machine; deepl-node's default 5 s timeout made tests fail then.
    minTimeout: 60_000,
  });
}

/**
 * A v2 glossary from English into Traditional Chinese as deepl-node makes one: its
 * `createGlossary` drops the script, so "zh-Hant" goes out as "zh" (which tolk stores as
 * Simplified).
 */
export function createTraditionalGlossary(
  client: deepl.DeepLClient,
  entries: deepl.GlossaryEntries,
): Promise<deepl.GlossaryInfo> {
  return client.createGlossary("Chinese", "en", "zh-Hant" as deepl.TargetLanguageCode, entries);
}
