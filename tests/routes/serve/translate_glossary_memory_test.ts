/**
 * A glossary and the translation memory on one request (README, "Glossaries, translation memory
 * and history"): a remembered translation, yours (origin `user`) or an engine's, is reused only
 * when it uses the request's glossary terms; one that misses a term sends the text to the engine,
 * as any answer that misses a term is sent again. Your entry stays as you wrote it and still
 * answers requests without that glossary: "a user entry wins over an engine one" holds within
 * the memory, and the glossary the request names is the rule every translation is held to.
 */
import assert from "node:assert/strict";
import { MemoryPageSchema } from "../../../schemas/memory.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { addUserEntry } from "../../support/memory_requests.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate, type TestService } from "../../support/translation_service.ts";

async function translate(service: TestService, options: Record<string, unknown>) {
  const response = await postTranslate(service, {
    source: "en",
    target: "de",
    texts: ["Open the database."],
    options: { engine: "engine-one", memory: true, ...options },
  });
  const report = response.headers.get("svc-glossary-report");
  return { report, body: await expectBody(response, 200, TranslateResponseSchema) };
}

/** The glossary database → Datenbank, and the user's own entry for "Open the database.". */
async function glossaryAndUserEntry(service: TestService, userTarget: string) {
  const { glossary_id } = await createGlossary(
    service,
    "G",
    ["en", "de"],
    "database\tDatenbank\n",
  );
  await addUserEntry(service, "Open the database.", userTarget);
  return glossary_id;
}

Deno.test("a user entry that uses the glossary's terms is reused with no engine call", async () => {
  await withStandInService({ glossary: "apply" }, async (service, runner) => {
    const glossary_id = await glossaryAndUserEntry(service, "Öffne die Datenbank.");
    const { report, body } = await translate(service, { glossary_id });
    assert.equal(runner.chats.length, 0, "no engine call");
    assert.equal(body.engine, "memory");
    assert.equal(body.results[0].text, "Öffne die Datenbank.");
    assert.equal(report, "matched=1; applied=1");
  });
});

Deno.test("a user entry that misses a glossary term is not the answer, and stays as written", async () => {
  await withStandInService({ glossary: "apply" }, async (service, runner) => {
    const glossary_id = await glossaryAndUserEntry(service, "Öffne die DB.");
    const { report, body } = await translate(service, { glossary_id });
    assert.equal(runner.chats.length, 1, "the engine was asked");
    assert.equal(body.engine, "engine-one");
    assert.match(body.results[0].text, /Datenbank/);
    assert.equal(report, "matched=1; applied=1");
    // The user's entry is still there, unchanged, and still wins without the glossary.
    const listed = await expectBody(
      await dataRequest(service, "GET", "/v1/memory/entries?limit=200"),
      200,
      MemoryPageSchema,
    );
    const user = listed.data.filter((entry) => entry.origin === "user");
    assert.deepEqual(user.map((entry) => entry.target), ["Öffne die DB."]);
    const again = await translate(service, {});
    assert.equal(again.body.engine, "memory");
    assert.equal(again.body.results[0].text, "Öffne die DB.");
    assert.equal(runner.chats.length, 1, "no second engine call");
  });
});

Deno.test("an engine's remembered translation that misses a glossary term is treated the same way", async () => {
  await withStandInService({ glossary: "apply" }, async (service, runner) => {
    await translate(service, {});
    assert.equal(runner.chats.length, 1);
    const { glossary_id } = await createGlossary(
      service,
      "G",
      ["en", "de"],
      "database\tDatenbank\n",
    );
    const { report, body } = await translate(service, { glossary_id });
    assert.equal(runner.chats.length, 2, "the engine was asked again");
    assert.match(body.results[0].text, /Datenbank/);
    assert.equal(report, "matched=1; applied=1");
    // The translation that uses the term is the one remembered now: the next request reuses it.
    const again = await translate(service, { glossary_id });
    assert.equal(again.body.engine, "memory");
    assert.equal(runner.chats.length, 2);
  });
});
