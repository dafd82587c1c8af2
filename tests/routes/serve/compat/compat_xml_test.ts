/**
 * deepl-node with `tagHandling: "xml"` and tag handling v2 on the markup a localisation
 * pipeline sends: what is well-formed XML is translated, never refused, and comes back with
 * every tag and reference as sent.
 */
import assert from "node:assert/strict";
import * as deepl from "deepl-node";
import { deeplClient } from "../../../support/deepl_client.ts";
import { upperCase } from "../../../support/format_engines.ts";
import { withOnlyStandIn } from "../../../support/stand_in_service.ts";

Deno.test("deepl-node tag handling v2 translates well-formed XML whose entity names hold - . or letters beyond ASCII, or run long", async () => {
  const text = '<?xml version="1.0"?>\n<!DOCTYPE doc [ <!ENTITY ver "[1.0]"> ]>\n' +
    "<doc>Install &product-name; &ver; on &rel.date; &Straße; &a_really_long_entity_name;.</doc>";
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const client = deeplClient(service);
    const result = await client.translateText(text, "en", "de", {
      tagHandling: "xml",
      tagHandlingVersion: "v2",
    });
    assert.equal(result.text, text.replace("Install", "INSTALL").replace(" on ", " ON "));
  });
});

Deno.test("deepl-node is told about a bad tag option or hint by the DeepL parameter it sent", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const client = deeplClient(service);
    const cases: [deepl.TranslateTextOptions, RegExp][] = [
      [{ tagHandling: "xml", ignoreTags: ["ph", "not a name"] }, /^ignore_tags\[1\]: /],
      [{ tagHandling: "xml", splittingTags: ["<br>"] }, /^splitting_tags\[0\]: /],
      [{ tagHandling: "xml", nonSplittingTags: ["1x"] }, /^non_splitting_tags\[0\]: /],
      [{ customInstructions: ["x".repeat(301)] }, /^custom_instructions\[0\]: /],
    ];
    for (const [options, said] of cases) {
      await assert.rejects(
        client.translateText("<p>Hello</p>", "en", "de", options),
        (error: Error) => {
          assert.ok(error instanceof deepl.DeepLError, String(error));
          const message = error.message.replace(/^Bad request, message: /, "");
          assert.match(message, said, JSON.stringify(options));
          return true;
        },
      );
    }
  });
});

Deno.test("deepl-node with tagHandling xml gets CDATA sections back byte for byte, untranslated, the text around them translated", async () => {
  const text = "<doc>Open <![CDATA[a < b && c]]> now.\n<![CDATA[line one\nline two. More.]]>" +
    "<note><![CDATA[]]]]><![CDATA[>]]></note></doc>";
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const client = deeplClient(service);
    for (const tagHandlingVersion of ["v1", "v2"] as const) {
      const result = await client.translateText(text, "en", "de", {
        tagHandling: "xml",
        tagHandlingVersion,
      });
      assert.equal(result.text, text.replace("Open", "OPEN").replace("now.", "NOW."));
    }
  });
});

Deno.test("deepl-node tag handling v2 names a CDATA section left open where it opens, not tolk's own wrapping", async () => {
  await withOnlyStandIn({ translate: upperCase }, async (service) => {
    const client = deeplClient(service);
    await assert.rejects(
      client.translateText("<a>x <![CDATA[ y</a>", "en", "de", {
        tagHandling: "xml",
        tagHandlingVersion: "v2",
      }),
      (error: Error) => {
        assert.match(error.message, /text 0: <!\[CDATA\[ at line 1, column 6 is never closed/);
        assert.doesNotMatch(error.message, /tolk-text|column -/);
        return true;
      },
    );
  });
});
