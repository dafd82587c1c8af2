/**
 * Translation memory on the translate path: exact hits skip the engine (the stand-in counts
 * calls), similar ones reach chat engines as examples, new translations are remembered, user
 * entries win, sensitive requests read and never write, and 50 parallel writers lose nothing.
 */
import assert from "node:assert/strict";
import { MemoryPageSchema } from "../../../schemas/memory.ts";
import { TranslateResponseSchema } from "../../../schemas/translation.ts";
import { dataRequest } from "../../support/data_requests.ts";
import { withStandInService } from "../../support/stand_in_service.ts";
import { expectBody } from "../../support/http_assertions.ts";
import { addUserEntry, translateWithMemory } from "../../support/memory_requests.ts";
import { type OllamaStandIn, standInTranslation } from "../../support/ollama_stand_in.ts";
import { postTranslate, type TestService } from "../../support/translation_service.ts";

function withChatService(fn: (service: TestService, runner: OllamaStandIn) => Promise<void>) {
  return withStandInService({}, fn);
}

async function entries(service: TestService) {
  return (await expectBody(
    await dataRequest(service, "GET", "/v1/memory/entries?limit=200"),
    200,
    MemoryPageSchema,
  )).data;
}

Deno.test("an exact memory hit skips the engine, and engine and model are memory", async () => {
  await withChatService(async (service, runner) => {
    await addUserEntry(service, "Good morning, my friend.", "Guten Morgen, mein Freund.");
    const body = await translateWithMemory(service, ["Good  morning,\tmy friend. "]);
    assert.equal(runner.chats.length, 0, "no engine call");
    assert.equal(body.engine, "memory");
    assert.equal(body.model, "memory");
    assert.equal(body.results[0].text, "Guten Morgen, mein Freund. ", "outer space kept");
  });
});

Deno.test("an exact hit answers with the request's outer white space, not the stored target's (a pretty-printed TMX <seg>)", async () => {
  await withChatService(async (service) => {
    await addUserEntry(service, "\n      Good day\n    ", "\n      Guten Tag\n    ");
    const body = await translateWithMemory(service, ["Good day", "  Good day\n"]);
    assert.deepEqual(body.results.map((result) => result.text), ["Guten Tag", "  Guten Tag\n"]);
    assert.equal(body.engine, "memory");
    const html = await expectBody(
      await postTranslate(service, {
        source: "en",
        target: "de",
        format: "html",
        texts: ["<p>Good day</p>"],
        options: { engine: "engine-one", memory: true },
      }),
      200,
      TranslateResponseSchema,
    );
    assert.equal(html.results[0].text, "<p>Guten Tag</p>");
  });
});

Deno.test("a new translation is remembered (origin engine) and the next identical request skips the engine", async () => {
  await withChatService(async (service, runner) => {
    const first = await translateWithMemory(service, ["The printer is out of paper."]);
    assert.equal(first.engine, "engine-one");
    assert.equal(runner.chats.length, 1);
    const stored = await entries(service);
    assert.deepEqual(stored.map((e) => [e.source, e.target, e.origin]), [
      [
        "The printer is out of paper.",
        standInTranslation("The printer is out of paper."),
        "engine",
      ],
    ]);
    const second = await translateWithMemory(service, [
      "The printer is out of paper.",
      "A new sentence here.",
    ]);
    assert.equal(runner.chats.length, 2, "only the new sentence went to the engine");
    assert.equal(second.engine, "engine-one", "one item needed the engine");
    assert.equal(second.results[0].text, standInTranslation("The printer is out of paper."));
  });
});

Deno.test("a user entry wins over the engine's remembered translation", async () => {
  await withChatService(async (service) => {
    await translateWithMemory(service, ["Save the file."]);
    await addUserEntry(service, "Save the file.", "Datei sichern.");
    const body = await translateWithMemory(service, ["Save the file."]);
    assert.equal(body.results[0].text, "Datei sichern.");
    assert.equal(body.engine, "memory");
  });
});

Deno.test("similar remembered pairs (≥ 75%) reach a chat engine as examples", async () => {
  await withChatService(async (service, runner) => {
    await addUserEntry(
      service,
      "The quick brown fox jumps over the lazy dog.",
      "Der schnelle braune Fuchs springt über den faulen Hund.",
    );
    await translateWithMemory(service, ["The quick brown fox jumped over the lazy dog."]);
    const messages = runner.chats[0].messages as { role: string; content: string }[];
    const system = messages.find((m) => m.role === "system")!.content;
    assert.match(system, /Earlier approved translations/);
    assert.ok(system.includes("Der schnelle braune Fuchs springt über den faulen Hund."));
  });
});

Deno.test("without memory: true the memory is neither read nor written", async () => {
  await withChatService(async (service, runner) => {
    await addUserEntry(service, "Good night.", "Gute Nacht.");
    const body = await translateWithMemory(service, ["Good night.", "Sleep well."], {
      memory: false,
    });
    assert.equal(runner.chats.length, 1);
    assert.equal(body.results[0].text, standInTranslation("Good night."));
    assert.equal((await entries(service)).length, 1, "nothing new stored");
  });
});

Deno.test("a sensitive request reads the memory and writes nothing", async () => {
  await withChatService(async (service, runner) => {
    await addUserEntry(service, "Known sentence.", "Bekannter Satz.");
    const body = await translateWithMemory(service, ["Known sentence.", "A secret sentence."], {
      sensitive: true,
    });
    assert.equal(body.results[0].text, "Bekannter Satz.");
    assert.equal(runner.chats.length, 1);
    assert.equal((await entries(service)).length, 1, "the secret sentence was not stored");
  });
});

Deno.test("50 parallel translate requests with memory on: no database is locked, nothing lost", async () => {
  await withChatService(async (service) => {
    const texts = Array.from(
      { length: 50 },
      (_, i) => `Parallel sentence number ${i} for the memory.`,
    );
    const bodies = await Promise.all(texts.map((text) => translateWithMemory(service, [text])));
    assert.equal(bodies.length, 50);
    const stored = await entries(service);
    assert.equal(stored.length, 50);
    assert.deepEqual(new Set(stored.map((e) => e.source)), new Set(texts));
    assert.ok(
      !service.logs.some((line) => /locked|write failed/.test(line)),
      service.logs.join("\n"),
    );
  });
});

Deno.test("an engine's remembered translation is reused only under the same context, tone, domain and instructions", async () => {
  await withChatService(async (service, runner) => {
    const text = "The bank is closed.";
    const river = { context: "We walked along the river until the path ended." };
    const money = { context: "I wanted to withdraw cash before the weekend." };
    await translateWithMemory(service, [text], river);
    await translateWithMemory(service, [text], river);
    assert.equal(runner.chats.length, 1, "the same context: a memory hit");

    const other = await translateWithMemory(service, [text], money);
    assert.equal(runner.chats.length, 2, "another context: the engine is asked");
    assert.equal(other.engine, "engine-one");
    const messages = runner.chats[1].messages as { role: string; content: string }[];
    assert.ok(
      messages.find((m) => m.role === "system")!.content.includes(standInTranslation(text)),
      "the translation made under the other context is an example",
    );
    await translateWithMemory(service, [text], money);
    assert.equal(runner.chats.length, 2, "the latest translation is the one remembered");

    for (
      const steering of [{}, { tone: "formal" }, { domain: "banking" }, {
        instructions: ["Use short words"],
      }]
    ) {
      const before: number = runner.chats.length;
      await translateWithMemory(service, [text], steering);
      assert.equal(runner.chats.length, before + 1, `${JSON.stringify(steering)}: engine asked`);
      await translateWithMemory(service, [text], steering);
      assert.equal(runner.chats.length, before + 1, `${JSON.stringify(steering)}: then remembered`);
    }
    assert.equal((await entries(service)).length, 1, "one engine entry per text, the latest");
  });
});

Deno.test("an engine's translation keeps the context it was made under through TMX export and import", async () => {
  const text = "The bank is closed.";
  const river = { context: "We walked along the river until the path ended." };
  let exported = "";
  await withChatService(async (service) => {
    await translateWithMemory(service, [text], river);
    exported = await (await dataRequest(service, "GET", "/v1/memory/export?format=tmx")).text();
  });
  await withChatService(async (service, runner) => {
    const imported = await dataRequest(service, "POST", "/v1/memory/import", exported, {
      "content-type": "application/x-tmx+xml",
    });
    assert.deepEqual(await imported.json(), { imported: 1, skipped: 0 });
    assert.equal(
      (await translateWithMemory(service, [text], river)).engine,
      "memory",
      "its own context",
    );
    assert.equal(runner.chats.length, 0);
    await translateWithMemory(service, [text]);
    assert.equal(runner.chats.length, 1, "no context: the engine is asked, as before the export");
  });
});

Deno.test("a user entry is a hit whatever the request's context", async () => {
  await withChatService(async (service, runner) => {
    await addUserEntry(service, "The bank is closed.", "Die Bank ist geschlossen.");
    const body = await translateWithMemory(service, ["The bank is closed."], {
      context: "We walked along the river.",
      tone: "casual",
    });
    assert.equal(runner.chats.length, 0);
    assert.equal(body.results[0].text, "Die Bank ist geschlossen.");
    assert.equal(body.engine, "memory");
  });
});

Deno.test("TMX export writes the placeholders of remembered HTML as inline codes, and import reads them back", async () => {
  const html = {
    source: "en",
    target: "de",
    format: "html",
    texts: ["<p>Click <b>Save</b> now.<br>Then close.</p>"],
    options: { engine: "engine-one", memory: true },
  };
  let exported = "";
  await withChatService(async (service) => {
    assert.equal((await postTranslate(service, html)).status, 200);
    const response = await dataRequest(service, "GET", "/v1/memory/export?format=tmx");
    exported = await response.text();
  });
  const codes = 'Click <bpt i="1">&lt;x1&gt;</bpt>Save<ept i="1">&lt;/x1&gt;</ept> now.' +
    '<ph x="2">&lt;x2/&gt;</ph>Then close.';
  assert.deepEqual(
    [...exported.matchAll(/<seg>(.*?)<\/seg>/g)].map((match) => match[1]),
    [codes, `[translated] ${codes}`],
    "a CAT tool sees tags, not tolk's placeholder tokens as text to translate",
  );
  await withChatService(async (service, runner) => {
    const imported = await dataRequest(service, "POST", "/v1/memory/import", exported, {
      "content-type": "application/x-tmx+xml",
    });
    assert.deepEqual(await imported.json(), { imported: 1, skipped: 0 });
    const body = await expectBody(await postTranslate(service, html), 200, TranslateResponseSchema);
    assert.equal(runner.chats.length, 0, "the imported entry is an exact hit");
    assert.equal(body.engine, "memory");
    assert.equal(body.results[0].text, "<p>[translated] Click <b>Save</b> now.<br>Then close.</p>");
  });
});

Deno.test("an answer that lost the segment's placeholders is not remembered: the next request asks the engine for the whole segment again", async () => {
  const dropsTags = (text: string) => standInTranslation(text.replace(/<\/?x\d+\/?>/g, ""));
  await withStandInService({ translate: dropsTags }, async (service, runner) => {
    const html = {
      source: "en",
      target: "de",
      format: "html",
      texts: ["<p>Click <b>Save</b> now.</p>"],
      options: { engine: "engine-one", memory: true },
    };
    const sentWhole = () =>
      runner.chats.filter((chat) => JSON.stringify(chat).includes("Click <x1>Save</x1> now."))
        .length;
    const first = await expectBody(
      await postTranslate(service, html),
      200,
      TranslateResponseSchema,
    );
    assert.ok(
      first.results[0].text.includes("<b>[translated] Save</b>"),
      "the fallback kept the tag",
    );
    const asked = sentWhole();
    assert.ok(asked > 0);
    assert.deepEqual(
      (await entries(service)).filter((entry) => entry.source.includes("<x1>")),
      [],
      "no pair whose target lost the <b>",
    );
    await postTranslate(service, html);
    assert.ok(sentWhole() > asked, "the whole segment went to the engine again");
  });
});
