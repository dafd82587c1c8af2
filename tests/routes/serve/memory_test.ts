import assert from "node:assert/strict";
import {
  AddMemoryResponseSchema,
  MemoryImportResponseSchema,
  MemoryPageSchema,
} from "../../../schemas/memory.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { expectBody, expectError } from "../../support/http_assertions.ts";
import {
  type TestService,
  withTranslationService as withService,
} from "../../support/translation_service.ts";

const TMX = { "content-type": "application/x-tmx+xml" };

async function add(
  service: TestService,
  entries: { source: string; target: string }[],
  pair = ["en", "de"],
) {
  return await expectBody(
    await dataRequest(service, "POST", "/v1/memory/entries", {
      source_lang: pair[0],
      target_lang: pair[1],
      entries,
    }),
    201,
    AddMemoryResponseSchema,
  );
}

async function list(service: TestService, query = "") {
  return await expectBody(
    await dataRequest(service, "GET", `/v1/memory/entries${query}`),
    200,
    MemoryPageSchema,
  );
}

Deno.test("POST then GET /v1/memory/entries: the user's pairs, newest first, paged and filtered", async () => {
  await withService(async (service) => {
    assert.deepEqual(
      await add(service, [{ source: "Save", target: "Sichern" }, {
        source: "Open",
        target: "Öffnen",
      }]),
      { added: 2 },
    );
    await add(service, [{ source: "Save", target: "Enregistrer" }], ["en", "fr"]);
    const page = await list(service, "?limit=2");
    assert.deepEqual(page.data.map((e) => [e.source, e.target, e.origin]), [
      ["Save", "Enregistrer", "user"],
      ["Open", "Öffnen", "user"],
    ]);
    const rest = await list(service, `?limit=2&cursor=${page.next_cursor}`);
    assert.deepEqual(rest.data.map((e) => e.target), ["Sichern"]);
    assert.equal(rest.next_cursor, null);
    assert.deepEqual((await list(service, "?target_lang=fr")).data.map((e) => e.target), [
      "Enregistrer",
    ]);
    assert.deepEqual((await list(service, "?q=%C3%B6ffnen")).data.map((e) => e.source), []);
    assert.deepEqual((await list(service, "?q=ope")).data.map((e) => e.source), ["Open"]);
  });
});

const Q_CASES = [
  { q: "%00", sources: [], why: "U+0000: SQL LIKE stopped there and matched every entry" },
  { q: "a%00zzz", sources: [], why: "text after a U+0000 counts" },
  { q: "%25", sources: ["100% sure"], why: "% is itself" },
  { q: "_", sources: ["snake_case"], why: "_ is itself" },
  { q: "SURE", sources: ["100% sure"], why: "ASCII case-insensitive" },
];

Deno.test("GET /v1/memory/entries?q= finds the text itself, whatever characters it holds", async () => {
  await withService(async (service) => {
    await add(service, [{ source: "snake_case", target: "a" }, {
      source: "100% sure",
      target: "b",
    }]);
    for (const { q, sources, why } of Q_CASES) {
      const found = (await list(service, `?q=${q}`)).data.map((e) => e.source);
      assert.deepEqual(found, sources, `q=${q}: ${why}`);
    }
  });
});

Deno.test("DELETE /v1/memory/entries/{id} removes one entry, then answers 404", async () => {
  await withService(async (service) => {
    await add(service, [{ source: "Save", target: "Sichern" }]);
    const [entry] = (await list(service)).data;
    assert.equal(
      (await dataRequest(service, "DELETE", `/v1/memory/entries/${entry.id}`)).status,
      204,
    );
    assert.deepEqual((await list(service)).data, []);
    await expectError(
      await dataRequest(service, "DELETE", `/v1/memory/entries/${entry.id}`),
      404,
      "not_found",
      "id",
    );
  });
});

const BAD = [
  {
    name: "an unsupported source_lang",
    body: { source_lang: "pt", target_lang: "de", entries: [{ source: "a", target: "b" }] },
    status: 422,
    code: "unsupported_language",
    param: "source_lang",
  },
  {
    name: "no entries",
    body: { source_lang: "en", target_lang: "de", entries: [] },
    status: 400,
    code: "invalid_request",
    param: "entries",
  },
  {
    name: "one language as source and target",
    body: { source_lang: "en", target_lang: "en", entries: [{ source: "a", target: "b" }] },
    status: 400,
    code: "invalid_request",
    param: "target_lang",
  },
  {
    name: "an empty target",
    body: { source_lang: "en", target_lang: "de", entries: [{ source: "a", target: "" }] },
    status: 400,
    code: "invalid_request",
    param: "entries[0].target",
  },
  {
    name: "a source of only white space",
    body: {
      source_lang: "en",
      target_lang: "de",
      entries: [{ source: "a", target: "b" }, { source: " \n\t\u3000", target: "b" }],
    },
    status: 400,
    code: "invalid_request",
    param: "entries[1].source",
  },
  {
    name: "a target of only white space",
    body: { source_lang: "en", target_lang: "de", entries: [{ source: "a", target: "  " }] },
    status: 400,
    code: "invalid_request",
    param: "entries[0].target",
  },
  {
    name: "an unknown field",
    body: {
      source_lang: "en",
      target_lang: "de",
      entries: [{ source: "a", target: "b", note: 1 }],
    },
    status: 400,
    code: "invalid_request",
    param: "entries[0].note",
  },
];

for (const { name, body, status, code, param } of BAD) {
  Deno.test(`POST /v1/memory/entries refuses ${name} with ${status} ${code}`, async () => {
    await withService(async (service) => {
      await expectError(
        await dataRequest(service, "POST", "/v1/memory/entries", body),
        status,
        code,
        param,
      );
      assert.deepEqual((await list(service)).data, [], "nothing written");
    });
  });
}

Deno.test("GET /v1/memory/export then POST /v1/memory/import into an empty database gives identical entries", async () => {
  let exported = "";
  let before: unknown[] = [];
  await withService(async (service) => {
    await add(service, [{ source: 'Tom & "Jerry"', target: "Tom & „Jerry“" }, {
      source: "東京へ\n行く",
      target: "Go to Tokyo",
    }]);
    await add(service, [{ source: "สวัสดี", target: "你好" }], ["th", "zh-Hant"]);
    const response = await dataRequest(service, "GET", "/v1/memory/export?format=tmx");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type")!, /^application\/x-tmx\+xml/);
    exported = await response.text();
    before = (await list(service)).data.map(({ id: _, ...rest }) => rest);
  });
  await withService(async (service) => {
    const result = await expectBody(
      await dataRequest(service, "POST", "/v1/memory/import", exported, TMX),
      200,
      MemoryImportResponseSchema,
    );
    assert.deepEqual(result, { imported: 3, skipped: 0 });
    const after = (await list(service)).data.map(({ id: _, ...rest }) => rest);
    assert.deepEqual(after, before);
  });
});

Deno.test("POST /v1/memory/import refuses a body that is not TMX, or not sent as TMX, and writes nothing", async () => {
  await withService(async (service) => {
    await expectError(
      await dataRequest(service, "POST", "/v1/memory/import", "<html/>", TMX),
      400,
      "invalid_request",
    );
    await expectError(
      await dataRequest(service, "POST", "/v1/memory/import", '<tmx version="1.4"><body/></tmx>', {
        "content-type": "text/plain",
      }),
      400,
      "invalid_request",
    );
    const broken = '<tmx version="1.4"><body>\n<tu><tuv xml:lang="en"><seg>a</tu></body></tmx>';
    const said = await expectError(
      await dataRequest(service, "POST", "/v1/memory/import", broken, TMX),
      400,
      "invalid_request",
    );
    assert.match(said.error.message, /^the body is not TMX: not well-formed XML at line 2, column/);
    assert.deepEqual((await list(service)).data, []);
  });
});

Deno.test("the memory routes need the token", async () => {
  await withService(async (service) => {
    for (
      const [method, path] of [["GET", "/v1/memory/entries"], ["POST", "/v1/memory/import"], [
        "GET",
        "/v1/memory/export",
      ], ["DELETE", "/v1/memory/entries/1"]]
    ) {
      await expectError(await fetch(`${service.url}${path}`, { method }), 401, "unauthorized");
    }
  });
});

Deno.test("POST /v1/memory/import reads a UTF-16 TMX (by its byte-order mark) and says what is wrong with an empty or undecodable body", async () => {
  await withService(async (service) => {
    const tmx = '<?xml version="1.0" encoding="UTF-16"?>\r\n<tmx version="1.4">' +
      '<header srclang="en" creationtool="Trados" segtype="sentence" o-tmf="x" adminlang="en" ' +
      'datatype="plaintext"/><body><tu><tuv xml:lang="en"><seg>Good morning</seg></tuv>' +
      '<tuv xml:lang="de"><seg>Guten Morgen</seg></tuv></tu></body></tmx>';
    const utf16 = new Uint8Array(2 + tmx.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < tmx.length; i++) {
      utf16[2 + 2 * i] = tmx.charCodeAt(i) & 0xff;
      utf16[3 + 2 * i] = tmx.charCodeAt(i) >> 8;
    }
    const post = (body: BodyInit) =>
      fetch(`${service.url}/v1/memory/import`, {
        method: "POST",
        headers: { "x-svc-token": service.token, ...TMX },
        body,
      });
    assert.deepEqual(await (await post(utf16)).json(), { imported: 1, skipped: 0 });
    const entries = (await list(service)).data.map((entry) => [entry.source, entry.target]);
    assert.deepEqual(entries, [["Good morning", "Guten Morgen"]]);
    const empty = await expectError(await post(""), 400, "invalid_request");
    assert.equal(empty.error.message, "the body is not TMX: the body is empty");
    const garbled = await expectError(
      await post(new Uint8Array([0x3c, 0xff, 0x3e])),
      400,
      "invalid_request",
    );
    assert.equal(garbled.error.message, "the body is not TMX: the body is not UTF-8 text");
  });
});

Deno.test("POST /v1/memory/import reads a segment written as CDATA as its text, and skips comments", async () => {
  await withService(async (service) => {
    const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" creationtool="x" segtype="sentence" o-tmf="x" adminlang="en" datatype="plaintext"/>
<body><tu><tuv xml:lang="en"><seg><![CDATA[Tom & Jerry <3]]></seg></tuv>
<tuv xml:lang="de"><seg>Tom &amp; Jerry<!-- checked --> &lt;3</seg></tuv></tu></body></tmx>`;
    const result = await expectBody(
      await dataRequest(service, "POST", "/v1/memory/import", tmx, TMX),
      200,
      MemoryImportResponseSchema,
    );
    assert.deepEqual(result, { imported: 1, skipped: 0 });
    assert.deepEqual((await list(service)).data.map((e) => [e.source, e.target]), [
      ["Tom & Jerry <3", "Tom & Jerry <3"],
    ]);
  });
});

Deno.test("POST /v1/memory/import skips and counts a variant in its source's own language (en-GB beside en-US), as POST /v1/memory/entries refuses en→en", async () => {
  await withService(async (service) => {
    const tu = (attributes: string, variants: [string, string][]) =>
      `<tu${attributes}>${
        variants.map(([lang, text]) => `<tuv xml:lang="${lang}"><seg>${text}</seg></tuv>`).join("")
      }</tu>`;
    const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en-GB" creationtool="x" segtype="sentence" o-tmf="x" adminlang="en" datatype="plaintext"/>
<body>${tu("", [["en-GB", "Colour"], ["en-US", "Color"], ["de", "Farbe"]])}
${tu(' srclang="*all*"', [["zh-CN", "颜色"], ["zh-SG", "颜色"]])}</body></tmx>`;
    const result = await expectBody(
      await dataRequest(service, "POST", "/v1/memory/import", tmx, TMX),
      200,
      MemoryImportResponseSchema,
    );
    assert.deepEqual(result, { imported: 1, skipped: 3 });
    assert.deepEqual(
      (await list(service)).data.map((e) => [e.source_lang, e.target_lang, e.source, e.target]),
      [["en", "de", "Colour", "Farbe"]],
    );
  });
});

Deno.test("GET /v1/memory/entries refuses a limit not written in decimal digits (0x2, 1e1, ' 2') with 400 naming limit", async () => {
  await withService(async (service) => {
    for (const limit of ["0x2", "1e1", "%202%20"]) {
      await expectError(
        await dataRequest(service, "GET", `/v1/memory/entries?limit=${limit}`),
        400,
        "invalid_request",
        "limit",
      );
    }
  });
});
