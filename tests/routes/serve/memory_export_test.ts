/**
 * GET /v1/memory/export keeps every entry as it is stored, characters XML 1.0 cannot carry too: an
 * export imported into an empty memory gives the same entries.
 */
import assert from "node:assert/strict";
import { AddMemoryResponseSchema, MemoryPageSchema } from "../../../schemas/memory.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

const TMX = { "content-type": "application/x-tmx+xml" };

async function pairs(service: TestService): Promise<string[][]> {
  const page = await expectBody(
    await dataRequest(service, "GET", "/v1/memory/entries?limit=200"),
    200,
    MemoryPageSchema,
  );
  return page.data.map((entry) => [entry.source, entry.target]);
}

Deno.test("GET /v1/memory/export keeps control characters (a Word line break, U+000B) as codes that import reads back", async () => {
  const entries = [
    { source: "Line\u000bbreak", target: "Zeilen\u000bumbruch" },
    { source: "Linebreak", target: "Zeilenumbruch" },
    { source: "Bell \u0007 & <tag> ]]> \uffff", target: "Glocke \u0007\u001f & <tag> ]]>" },
    { source: "Tab\tand\nnew line 😀", target: "Tab\tund\nneue Zeile 😀" },
  ];
  let exported = "";
  let before: string[][] = [];
  await withService(async (service) => {
    await expectBody(
      await dataRequest(service, "POST", "/v1/memory/entries", {
        source_lang: "en",
        target_lang: "de",
        entries,
      }),
      201,
      AddMemoryResponseSchema,
    );
    before = await pairs(service);
    exported = await (await dataRequest(service, "GET", "/v1/memory/export?format=tmx")).text();
  });
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(exported, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  await withService(async (service) => {
    const imported = await dataRequest(service, "POST", "/v1/memory/import", exported, TMX);
    assert.deepEqual(await imported.json(), { imported: 4, skipped: 0 });
    assert.deepEqual(await pairs(service), before);
  });
});
