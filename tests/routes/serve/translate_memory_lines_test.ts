/**
 * A memory hit keeps the request's lines: the lookup collapses white space (DECISIONS.md), so a
 * stored text whose line breaks differ from the request's is not an exact hit (its translation
 * would bring the other lines), while spaces and tabs still differ freely. CRLF, LF and CR are one
 * line break written three ways: the hit answers with the request's.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { addUserEntry, translateWithMemory } from "../../support/memory_requests.ts";
import { standInTranslation } from "../../support/ollama_stand_in.ts";
import { postTranslate, type TestService } from "../../support/translation_service.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DATABASE_FILE } from "../../../storage/database.ts";
import { MIGRATIONS } from "../../../storage/migrations/migrations.ts";
import { withTempDir } from "../../support/temp_dir.ts";

/**
 * Stored source, request text, and the answer of a hit (the stored target, "Guten Morgen" with
 * the source's white space, as the request's line ends); undefined for a miss.
 */
const LINE_CASES: { stored: string; request: string; answer?: string }[] = [
  { stored: "Good\n\nmorning", request: "Good morning" },
  { stored: "Good morning", request: "Good\n\nmorning" },
  { stored: "Good\nmorning", request: "Good\n\nmorning" },
  { stored: "Good\r\nmorning", request: "Good\r\n\r\nmorning" },
  { stored: "Good\nmorning", request: "Good\u2028morning" },
  { stored: "Good\r\nmorning", request: "Good\nmorning", answer: "Guten\nMorgen" },
  { stored: "Good\nmorning", request: "Good\r\nmorning", answer: "Guten\r\nMorgen" },
  { stored: "Good\rmorning", request: "Good\r\nmorning", answer: "Guten\r\nMorgen" },
  { stored: "Good\n\nmorning", request: "Good \n\n  morning", answer: "Guten\n\nMorgen" },
  { stored: "Good  \t morning", request: "Good morning", answer: "Guten  \t Morgen" },
  { stored: "\n  Good morning\n", request: "Good morning", answer: "Guten Morgen" },
];

for (const { stored, request, answer } of LINE_CASES) {
  Deno.test(`memory: stored ${JSON.stringify(stored)} ${answer ? "answers" : "does not answer"} ${JSON.stringify(request)}`, async () => {
    await withStandInService({}, async (service, runner) => {
      const storedTarget = stored.replace("Good", "Guten").replace("morning", "Morgen");
      await addUserEntry(service, stored, storedTarget);
      const body = await translateWithMemory(service, [request]);
      if (answer !== undefined) {
        assert.equal(runner.chats.length, 0, "no engine call");
        assert.equal(body.engine, "memory");
        assert.equal(body.results[0].text, answer);
      } else {
        assert.equal(runner.chats.length, 1, "the engine translates it");
        assert.equal(body.results[0].text, standInTranslation(request));
      }
    });
  });
}

Deno.test("memory: engine translations of texts differing only in their lines each answer their own text", async () => {
  await withStandInService({}, async (service) => {
    await translateWithMemory(service, ["Good morning"]);
    await translateWithMemory(service, ["Good\n\nmorning"]);
    const body = await translateWithMemory(service, ["Good morning", "Good\n\nmorning"]);
    assert.deepEqual(body.results.map((result) => result.text), [
      standInTranslation("Good morning"),
      standInTranslation("Good\n\nmorning"),
    ]);
  });
});

/** Imports one en → de unit, as a file another tool wrote. */
async function importUnit(service: TestService, source: string, target: string) {
  const tmx = `<?xml version="1.0" encoding="UTF-8"?>\r\n<tmx version="1.4"><header ` +
    `creationtool="t" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" ` +
    `srclang="en" datatype="plaintext"/><body><tu><tuv xml:lang="en"><seg>${source}</seg></tuv>` +
    `<tuv xml:lang="de"><seg>${target}</seg></tuv></tu></body></tmx>`;
  const response = await fetch(`${service.url}/v1/memory/import`, {
    method: "POST",
    headers: { "x-svc-token": service.token, "content-type": "application/x-tmx+xml" },
    body: tmx,
  });
  assert.deepEqual(await response.json(), { imported: 1, skipped: 0 });
}

Deno.test("memory: a TMX unit written over CRLF lines (which XML reads as LF) answers the CRLF text it came from, in CRLF", async () => {
  await withStandInService({}, async (service, runner) => {
    await importUnit(service, "First line\r\nsecond line", "Erste Zeile\r\nzweite Zeile");
    const body = await translateWithMemory(service, ["First line\r\nsecond line"]);
    assert.equal(runner.chats.length, 0, "no engine call");
    assert.equal(body.results[0].text, "Erste Zeile\r\nzweite Zeile");
  });
});

/**
 * Formats where a line break inside a segment is white space: a hit need not have it. (Markdown
 * gives a wrapped line's break to the engine as a placeholder, so it is not white space there.)
 */
const SOFT_BREAKS = [
  { format: "html", text: "<p>Good\n  morning to you</p>", expected: "<p>Guten Morgen dir</p>" },
];

for (const { format, text, expected } of SOFT_BREAKS) {
  Deno.test(`memory: in ${format} a segment wrapped over lines is answered by its one-line entry`, async () => {
    await withStandInService({}, async (service, runner) => {
      await addUserEntry(service, "Good morning to you", "Guten Morgen dir");
      const body = await expectBody(
        await postTranslate(service, {
          source: "en",
          target: "de",
          format,
          texts: [text],
          options: { engine: "engine-one", memory: true },
        }),
        200,
        TranslateResponseSchema,
      );
      assert.equal(runner.chats.length, 0, "no engine call");
      assert.equal(body.results[0].text, expected);
    });
  });
}

Deno.test("memory: user entries differing only in their lines are two entries, each answering its own text", async () => {
  await withStandInService({}, async (service, runner) => {
    await addUserEntry(service, "Good morning", "Guten Morgen");
    await addUserEntry(service, "Good\n\nmorning", "Guten\n\nMorgen");
    await addUserEntry(service, "Good\r\n\r\nmorning", "Guten\r\n\r\nMorgen!");
    const body = await translateWithMemory(service, ["Good morning", "Good\n\nmorning"]);
    assert.equal(runner.chats.length, 0, "no engine call");
    assert.deepEqual(body.results.map((result) => result.text), [
      "Guten Morgen",
      "Guten\n\nMorgen!",
    ]);
  });
});

Deno.test("memory: in html a segment wrapped over lines is answered by the engine's remembered translation of it", async () => {
  await withStandInService({}, async (service, runner) => {
    const request = {
      source: "en",
      target: "de",
      format: "html",
      texts: ["<p>Good\n  morning to you</p>"],
      options: { engine: "engine-one", memory: true },
    };
    const first = await expectBody(
      await postTranslate(service, request),
      200,
      TranslateResponseSchema,
    );
    const again = await expectBody(
      await postTranslate(service, request),
      200,
      TranslateResponseSchema,
    );
    assert.equal(runner.chats.length, 1, "the engine once");
    assert.equal(again.engine, "memory");
    assert.equal(again.results[0].text, first.results[0].text);
  });
});

Deno.test("migration 9: an entry stored under the key without its lines answers its own text, and a one-line entry no longer replaces it", async () => {
  await withTempDir("tolk-memory-lines-", async (dataDir) => {
    const old = new DatabaseSync(join(dataDir, DATABASE_FILE));
    for (const migration of MIGRATIONS.filter((step) => step.version <= 8)) old.exec(migration.sql);
    old.exec("pragma user_version = 8;");
    // As the schema-8 store wrote it: the key with every gap as one space.
    old.prepare(
      `insert into memory_entries (source_lang, target_lang, key, source, target, origin, length,
         created, steering) values ('en', 'de', 'Good morning', ?, ?, 'user', 13, 0, '')`,
    ).run("Good\n\nmorning", "Guten\n\nMorgen");
    old.close();
    await withStandInService({ dataDir }, async (service, runner) => {
      await addUserEntry(service, "Good morning", "Guten Morgen");
      const body = await translateWithMemory(service, ["Good\r\n\r\nmorning", "Good morning"]);
      assert.equal(runner.chats.length, 0, "no engine call");
      assert.deepEqual(body.results.map((result) => result.text), [
        "Guten\r\n\r\nMorgen",
        "Guten Morgen",
      ]);
    });
  });
});
