/**
 * Engine addresses typed on the settings page that no request could use: refused when saved,
 * with a message saying what is wrong, and nothing changes.
 */
import assert from "node:assert/strict";
import { expectError } from "../../support/http_assertions.ts";
import { openSession, pageCall, WITH_LINK_KEY } from "../../support/settings_session.ts";
import { withTranslationService } from "../../support/translation_service.ts";

const CASES = [
  { name: "a space inside", url: "http://127.0.0.1:11434/ v1", says: /space/ },
  { name: "a space before the port", url: "http://127.0.0.1: 11434", says: /space/ },
  { name: "port 0", url: "http://127.0.0.1:0", says: /port .*1 to 65535/ },
  { name: "a port over 65535", url: "http://127.0.0.1:99999", says: /port .*1 to 65535/ },
];

for (const { name, url, says } of CASES) {
  Deno.test(`an engine address with ${name} is refused saying so, and nothing changes`, async () => {
    await withTranslationService(async (service) => {
      const cookie = await openSession(service);
      const before = service.store.read().engines["engine-one"].base_url;
      const response = await pageCall(service, "engines", {
        cookie,
        body: { engines: { "engine-one": { base_url: url } } },
      });
      const body = await expectError(
        response,
        400,
        "invalid_request",
        "engines.engine-one.base_url",
      );
      assert.match(body.error.message, says);
      assert.equal(service.store.read().engines["engine-one"].base_url, before);
    }, { settings: WITH_LINK_KEY });
  });
}
