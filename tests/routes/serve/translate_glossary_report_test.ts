/**
 * `Svc-Glossary-Report` counts the terms of the request's texts, whatever work the service saves:
 * in `webpage` mode identical items go to the engine once (DECISIONS.md, "Modes"), and the
 * report still counts each item, as the same request in any other mode does.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { createGlossary } from "../../support/glossary_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { postTranslate } from "../../support/translation_service.ts";

const TEXTS = ["Open the database.", "Open the database.", "The database server"];

for (const mode of ["webpage", "paragraph"] as const) {
  Deno.test(`Svc-Glossary-Report counts every item's terms in ${mode} mode (identical items too)`, async () => {
    await withStandInService({ glossary: "apply" }, async (service, runner) => {
      const { glossary_id } = await createGlossary(
        service,
        "G",
        ["en", "de"],
        "database\tDatenbank\nserver\tRechner\n",
      );
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        texts: TEXTS,
        mode,
        options: { engine: "engine-one", glossary_id },
      });
      const report = response.headers.get("svc-glossary-report");
      const body = await expectBody(response, 200, TranslateResponseSchema);
      assert.equal(report, "matched=4; applied=4");
      assert.deepEqual(body.glossary, { matched: 4, applied: 4 });
      assert.deepEqual(body.results.map((result) => result.text), [
        "[translated] Open the Datenbank.",
        "[translated] Open the Datenbank.",
        "[translated] The Datenbank Rechner",
      ]);
      const sent = runner.chats.map((chat) => {
        const user = (chat.messages as { role: string; content: string }[])
          .find((message) => message.role === "user")!;
        return (JSON.parse(user.content) as { items: unknown[] }).items.length;
      });
      assert.deepEqual(
        sent,
        [mode === "webpage" ? 2 : 3],
        "identical items sent once in webpage mode",
      );
    });
  });
}
