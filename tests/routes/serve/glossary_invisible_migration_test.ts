/**
 * Glossary terms a release before the zero-width rule stored with a zero-width space, word joiner
 * or U+FEFF inside (entries_text.ts leaves them out of new terms): migration 8 takes them out, so
 * such a term matches the text that looks the same, through GET .../entries and /v1/translate.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { GlossaryEntriesSchema, GlossarySchema } from "../../../schemas/glossary.ts";
import { DATABASE_FILE } from "../../../storage/database.ts";
import { MIGRATIONS } from "../../../storage/migrations/migrations.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withTempDir } from "../../support/temp_dir.ts";
import { withTranslationService } from "../../support/translation_service.ts";

const GLOSSARY_ID = "00000000-0000-4000-8000-000000000001";

/** A schema-7 database holding one glossary whose entries are `[pair, source, target]`. */
function writeOldGlossary(path: string, entries: [string, string, string][]): void {
  const old = new DatabaseSync(path);
  for (const migration of MIGRATIONS.filter((step) => step.version <= 7)) old.exec(migration.sql);
  old.exec("pragma user_version = 7;");
  old.prepare("insert into glossaries (id, name, created) values (?, 'Old', 0)").run(GLOSSARY_ID);
  for (const pair of new Set(entries.map(([pair]) => pair))) {
    old.prepare("insert into glossary_dictionaries values (?, ?, ?)")
      .run(GLOSSARY_ID, ...pair.split(">"));
  }
  entries.forEach(([pair, source, target], position) =>
    old.prepare("insert into glossary_entries values (?, ?, ?, ?, ?, ?)")
      .run(GLOSSARY_ID, ...pair.split(">"), position, source, target)
  );
  old.close();
}

Deno.test("migration 8 takes zero-width spaces, word joiners and U+FEFF out of stored glossary terms", async () => {
  await withTempDir("tolk-glossary-invisible-", async (dataDir) => {
    writeOldGlossary(join(dataDir, DATABASE_FILE), [
      ["en>de", "data\u200Bbase", "Daten\u2060bank"],
      ["en>de", "\u200B", "nichts"],
      ["en>de", "tolk\u200B", "\u200B"],
      ["en>de", "\u200B New York", "Neu\uFEFFyork "],
      ["en>de", "Data\u200Bbase", "Datenbasis"],
      ["en>de", "e\u200D\u200Cmail", "E-Mail"],
      ["en>fr", "\u2060", "rien"],
    ]);
    await withTranslationService(async (service) => {
      const entries = await expectBody(
        await dataRequest(service, "GET", `/v1/glossaries/${GLOSSARY_ID}/entries`),
        200,
        GlossaryEntriesSchema,
      );
      // A term left empty is gone, and so is a second spelling of a term (the first is kept),
      // as a new upload refuses both; a dictionary left with no term goes too.
      assert.deepEqual(entries.dictionaries, [{
        source_lang: "en",
        target_lang: "de",
        entries: "database\tDatenbank\ntolk\t\nNew York\tNeuyork\ne\u200D\u200Cmail\tE-Mail\n",
        entries_format: "tsv",
      }]);
      const glossary = await expectBody(
        await dataRequest(service, "GET", `/v1/glossaries/${GLOSSARY_ID}`),
        200,
        GlossarySchema,
      );
      assert.deepEqual(glossary.dictionaries, [{
        source_lang: "en",
        target_lang: "de",
        entry_count: 4,
      }]);
      const response = await dataRequest(service, "POST", "/v1/translate", {
        source: "en",
        target: "de",
        texts: ["Open the database in New York."],
        options: { glossary_id: GLOSSARY_ID },
      });
      await response.body?.cancel();
      assert.equal(response.status, 200);
      assert.match(response.headers.get("svc-glossary-report") ?? "", /^matched=2;/);
    }, { dataDir });
  });
});
