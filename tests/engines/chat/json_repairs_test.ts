/**
 * Answers small models write when a server does not hold them to the schema: Python-style
 * single-quoted JSON (`{'1': 'Hello'}`, what `str()` of a dict prints) and a bare list of the
 * translations in order. Read as meant; anything doubtful stays an answer asked again.
 */
import assert from "node:assert/strict";
import { parseAnswer } from "../../../engines/chat/translation_protocol.ts";
import { ENGINE_ONE, translateOk } from "../../support/chat_engine_checks.ts";
import { withStandInService } from "../../support/stand_in_service.ts";

const ITEMS = [{ id: "1", text: "Hallo" }, { id: "2", text: "Welt" }];

const ANSWERS: { name: string; content: string; texts?: [string, string]; problem?: RegExp }[] = [
  {
    name: "single-quoted keys and strings",
    content: "{'1': 'Hello', '2': 'World'}",
    texts: ["Hello", "World"],
  },
  {
    name: "single quotes in a code fence, with a trailing comma",
    content: "```json\n{'1': 'Hello',\n '2': 'World',}\n```",
    texts: ["Hello", "World"],
  },
  {
    name: "single and double quotes mixed, an apostrophe inside the double ones",
    content: `{'1': "l'homme", '2': 'World'}`,
    texts: ["l'homme", "World"],
  },
  {
    name: "an apostrophe inside single quotes, unescaped",
    content: "{'1': 'l'homme', '2': 'the dogs' bowl'}",
    texts: ["l'homme", "the dogs' bowl"],
  },
  {
    name: "an escaped apostrophe and a double quote inside single quotes",
    content: `{'1': 'It\\'s', '2': 'Say "hi"'}`,
    texts: ["It's", 'Say "hi"'],
  },
  {
    name: "a single-quoted translations list",
    content: "{'translations': ['Hello', 'World']}",
    texts: ["Hello", "World"],
  },
  {
    name: "a bare list of the translations in order",
    content: '["Hello", "World"]',
    texts: ["Hello", "World"],
  },
  {
    name: "a list of fewer translations than texts",
    content: '{"translations": ["Hello"]}',
    problem: /not an object of ids/,
  },
  {
    name: "a list of more translations than texts",
    content: '["Hello", "World", "Again"]',
    problem: /not an object of ids/,
  },
];

for (const { name, content, texts, problem } of ANSWERS) {
  Deno.test(`parseAnswer reads ${name}`, () => {
    const parsed = parseAnswer(content, ITEMS);
    if (texts) {
      assert.deepEqual(
        ITEMS.map(({ id }) => parsed.translations.get(id)?.text),
        texts,
        JSON.stringify([...parsed.problems]),
      );
      assert.equal(parsed.problems.size, 0);
    } else {
      assert.equal(parsed.translations.size, 0);
      for (const { id } of ITEMS) assert.match(parsed.problems.get(id) ?? "", problem!);
    }
  });
}

Deno.test("POST /v1/translate through engine-one reads a single-quoted answer at once", async () => {
  const script = [{ content: "{'1': 'Good day, it\\'s me'}" }];
  await withStandInService({ script }, async (service, runner) => {
    const result = await translateOk(service, { ...ENGINE_ONE, texts: ["Guten Tag, ich bin's"] });
    assert.equal(result.results[0].text, "Good day, it's me");
    assert.equal(runner.chats.length, 1);
  });
});
