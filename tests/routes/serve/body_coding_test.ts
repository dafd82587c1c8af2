/**
 * A compressed request body on tolk's own routes is refused naming its Content-Encoding (400
 * `invalid_request`, as the compat routes refuse it), not read as bytes that "are not valid
 * UTF-8" or "are not TMX"; `identity` is no coding at all.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { expectError } from "../../support/http_assertions.ts";
import { withTranslationService as withService } from "../../support/translation_service.ts";

const TMX_BODY = '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header ' +
  'creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" ' +
  'srclang="en" datatype="plaintext"/><body><tu><tuv xml:lang="en"><seg>house</seg></tuv>' +
  '<tuv xml:lang="fr"><seg>maison</seg></tuv></tu></body></tmx>\n';

/** Routes that read a body, each with a body it takes and the status that body gets. */
const ROUTES = [
  {
    path: "/v1/translate",
    type: "application/json",
    body: JSON.stringify({ target: "en", texts: ["the house is small"] }),
    ok: 200,
  },
  {
    path: "/v1/detect",
    type: "application/json",
    body: JSON.stringify({ texts: ["the house is small"] }),
    ok: 200,
  },
  {
    path: "/v1/memory/entries",
    type: "application/json",
    body: JSON.stringify({
      source_lang: "en",
      target_lang: "fr",
      entries: [{ source: "garden", target: "jardin" }],
    }),
    ok: 201,
  },
  { path: "/v1/memory/import", type: "application/x-tmx+xml", body: TMX_BODY, ok: 200 },
] as const;

for (const route of ROUTES) {
  Deno.test(`POST ${route.path}: a gzip body is a 400 naming its Content-Encoding`, async () => {
    await withService(async (service) => {
      const post = (coding: string, body: BodyInit) =>
        fetch(`${service.url}${route.path}`, {
          method: "POST",
          headers: {
            "x-svc-token": service.token,
            "content-type": route.type,
            "content-encoding": coding,
          },
          body,
        });
      for (const coding of ["gzip", "GZIP", "deflate, gzip"]) {
        const { error } = await expectError(
          await post(coding, gzipSync(route.body)),
          400,
          "invalid_request",
        );
        assert.match(error.message, /Content-Encoding/, error.message);
        assert.ok(error.message.toLowerCase().includes(coding.toLowerCase()), error.message);
      }
      const plain = await post("identity", route.body);
      assert.equal(plain.status, route.ok, await plain.text());
    });
  });
}
