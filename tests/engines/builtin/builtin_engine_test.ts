import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  type BuiltinEngineOptions,
  createBuiltinEngine,
} from "../../../engines/builtin/builtin_engine.ts";
import {
  type Engine,
  type EngineStatus,
  EngineUnavailableError,
  type TranslationItem,
  type TranslationJob,
} from "../../../engines/engine.ts";
import type { LanguageCode } from "../../../schemas/languages.ts";

const MODELS_DIR = fileURLToPath(new URL("../../fixtures/models/", import.meta.url));
const NLLB = "tolk-test/tiny-nllb";
const M2M100 = "tolk-test/tiny-m2m100";
const MARIAN = "tolk-test/tiny-marian";

/** Runs `body` with an engine over the fixtures, always closing it. */
async function withEngine(
  body: (engine: Engine) => Promise<void>,
  options: Partial<BuiltinEngineOptions> = {},
): Promise<void> {
  const engine = createBuiltinEngine({
    modelsDir: MODELS_DIR,
    defaultModel: NLLB,
    maxNewTokens: 8,
    ...options,
  });
  try {
    await body(engine);
  } finally {
    await engine.close?.();
  }
}

function job(items: TranslationItem[], target: LanguageCode, extra: Partial<TranslationJob> = {}) {
  return { items, target, mode: "paragraph", alternatives: false, ...extra };
}

function english(...texts: string[]): TranslationItem[] {
  return texts.map((text) => ({ text, source: "en" }));
}

async function texts(engine: Engine, items: TranslationItem[], target: LanguageCode = "fr") {
  const outcome = await engine.translate(job(items, target));
  return outcome.items.map((item) => item.text);
}

const INPUTS = ["Hello world", "Second item", "the first sentence is good", "你好世界", "a"];

Deno.test("local-llm keeps batch order and gives each item the text it gets alone", async () => {
  await withEngine(async (engine) => {
    const batched = await texts(engine, english(...INPUTS));
    const alone = [];
    for (const text of INPUTS) alone.push(...await texts(engine, english(text)));
    assert.deepEqual(batched, alone);
    assert.equal(new Set(batched).size, INPUTS.length, `rows should differ: ${batched}`);
  });
});

Deno.test("local-llm gives the same text whatever the sub-batch size", async () => {
  const items = english(...INPUTS, "thank you", "good morning", "das ist gut");
  let one: string[] = [];
  await withEngine(async (engine) => {
    one = await texts(engine, items);
  }, { batchSize: 1 });
  await withEngine(async (engine) => {
    assert.deepEqual(await texts(engine, items), one);
  }, { batchSize: 3 });
});

Deno.test("local-llm sets the source language on every call, and it does not stick", async () => {
  await withEngine(async (engine) => {
    const fromEnglish = await texts(engine, [{ text: "hello world", source: "en" }], "de");
    const fromFrench = await texts(engine, [{ text: "hello world", source: "fr" }], "de");
    const again = await texts(engine, [{ text: "hello world", source: "en" }], "de");
    assert.notDeepEqual(fromFrench, fromEnglish);
    assert.deepEqual(again, fromEnglish);
    const mixed = await texts(engine, [
      { text: "hello world", source: "fr" },
      { text: "hello world", source: "en" },
    ], "de");
    assert.deepEqual(mixed, [...fromFrench, ...fromEnglish]);
  });
});

Deno.test("local-llm target language changes the output", async () => {
  await withEngine(async (engine) => {
    const french = await texts(engine, english(...INPUTS), "fr");
    const german = await texts(engine, english(...INPUTS), "de");
    assert.notDeepEqual(french, german);
  });
});

Deno.test("local-llm splits an item longer than the window at sentences and joins the parts", async () => {
  // 44, 50 and 49 tokens: each fits the tiny NLLB window (64 tokens) on its own, two do not.
  const sentences = [
    "Bonjour tout le monde, ceci est une phrase assez longue.",
    "Zweiter Satz mit vielen Wörtern, damit er lang genug ist.",
    "Tercera frase con muchas palabras para la entrada aquí.",
  ];
  await withEngine(async (engine) => {
    const [whole] = await texts(engine, english(sentences.join(" ")));
    const parts = await texts(engine, english(...sentences));
    assert.equal(whole, parts.join(" "));
  });
});

Deno.test("local-llm keeps the whitespace around an item", async () => {
  await withEngine(async (engine) => {
    const [bare] = await texts(engine, english("Hello world"));
    const [padded] = await texts(engine, english("  Hello world\n"));
    assert.equal(padded, `  ${bare}\n`);
  });
});

Deno.test("local-llm reports a confidence in 0..1 and no alternatives unless asked", async () => {
  await withEngine(async (engine) => {
    const outcome = await engine.translate(job(english(...INPUTS), "fr"));
    assert.equal(outcome.model, NLLB);
    for (const item of outcome.items) {
      assert.ok(item.confidence !== null && item.confidence > 0 && item.confidence <= 1);
      assert.deepEqual(item.alternatives, []);
    }
  });
});

Deno.test("local-llm returns at most 3 distinct alternative candidates, seeded", async () => {
  await withEngine(async (engine) => {
    const request = job(english("Hello world", "Second item"), "fr", { alternatives: true });
    const outcome = await engine.translate(request);
    for (const item of outcome.items) {
      assert.ok(item.alternatives.length >= 1 && item.alternatives.length <= 3);
      assert.equal(new Set(item.alternatives).size, item.alternatives.length);
    }
    const repeated = await engine.translate(request);
    assert.deepEqual(repeated, outcome, "alternatives are seeded, so a request repeats");
  });
});

Deno.test("local-llm returns an item the model cannot read as it is, and translates its neighbours", async () => {
  await withEngine(async (engine) => {
    const [alone] = await texts(engine, english("Hello world"));
    const outcome = await engine.translate(job([
      { text: "Hello world", source: "en" },
      { text: "Hallo Welt", source: "de" },
    ], "fr"));
    assert.equal(outcome.items[0].text, alone);
    assert.deepEqual(outcome.items[1], { text: "Hallo Welt", confidence: 0, alternatives: [] });
  }, { defaultModel: MARIAN });
});

Deno.test("local-llm does not walk the models folder again once a model is loaded", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/tolk-test`);
    await copyDir(`${MODELS_DIR}${NLLB}`, `${dir}/${NLLB}`);
    await withEngine(async (engine) => {
      const [first] = await texts(engine, english("Hello world"));
      // Were the folder inspected again, the missing files would make the model unavailable.
      await Deno.remove(`${dir}/${NLLB}`, { recursive: true });
      assert.deepEqual(await texts(engine, english("Hello world")), [first]);
      assert.deepEqual((await engine.status()).models, [], "a load refreshes the listing");
    }, { modelsDir: dir, statusCacheMs: 60_000 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = `${from}/${entry.name}`;
    if (entry.isDirectory) await copyDir(source, `${to}/${entry.name}`);
    else await Deno.copyFile(source, `${to}/${entry.name}`);
  }
}

Deno.test("local-llm refuses a missing model with a reason naming it and the models dir", async () => {
  await withEngine(async (engine) => {
    const error = await engine.translate(job(english("hi"), "fr", { model: "nobody/missing" }))
      .then(() => null, (error) => error);
    assert.ok(error instanceof EngineUnavailableError);
    assert.match(error.message, /nobody\/missing/);
    assert.ok(error.message.includes(MODELS_DIR));
    await assert.rejects(
      engine.translate(job(english("hi"), "fr", { model: "../fixtures" })),
      EngineUnavailableError,
    );
  });
});

Deno.test("local-llm cannot take a source language the model cannot read, naming it", async () => {
  await withEngine(async (engine) => {
    await assert.rejects(
      engine.translate(job([{ text: "hallo", source: "xx" }], "fr")),
      (error) => error instanceof EngineUnavailableError && /"xx"/.test(error.message),
    );
  });
});

Deno.test("local-llm loads and runs an M2M100 model", async () => {
  await withEngine(async (engine) => {
    const outcome = await engine.translate(job(english("Hello world", "Second item"), "ja"));
    assert.equal(outcome.model, M2M100);
    assert.equal(outcome.items.length, 2);
    assert.notEqual(outcome.items[0].text, outcome.items[1].text);
    const fromGerman = await engine.translate(job([{ text: "Hello world", source: "de" }], "ja"));
    assert.notEqual(fromGerman.items[0].text, outcome.items[0].text);
  }, { defaultModel: M2M100 });
});

Deno.test("local-llm loads a Marian pair model (q8 only) and refuses other pairs", async () => {
  await withEngine(async (engine) => {
    const outcome = await engine.translate(job(english("Hello world", "Second item"), "fr"));
    assert.equal(outcome.model, MARIAN);
    assert.notEqual(outcome.items[0].text, outcome.items[1].text);
    await assert.rejects(
      engine.translate(job([{ text: "Hallo", source: "de" }], "fr")),
      (error) => error instanceof EngineUnavailableError && /"de"/.test(error.message),
    );
    await assert.rejects(
      engine.translate(job(english("Hello"), "es")),
      (error) => error instanceof EngineUnavailableError && /"es"/.test(error.message),
    );
  }, { defaultModel: MARIAN });
});

Deno.test("local-llm stops between sub-batches once the job is aborted", async () => {
  await withEngine(async (engine) => {
    const controller = new AbortController();
    controller.abort(new Error("client gone"));
    await assert.rejects(
      engine.translate(job(english("Hello"), "fr", { signal: controller.signal })),
      /client gone/,
    );
  });
});

Deno.test("local-llm status lists every installed model and is ready with its default", async () => {
  const expected: EngineStatus = {
    ready: true,
    models: [M2M100, MARIAN, NLLB].map((id) => ({ id, name: id, ready: true })),
  };
  await withEngine(async (engine) => assert.deepEqual(await engine.status(), expected));
  await withEngine(
    async (engine) => {
      const { hint, ...status } = await engine.status();
      assert.deepEqual(status, { ...expected, ready: false });
      assert.match(
        hint ?? "",
        /^model nobody\/missing is not installed in .*`deno task tolk models pull`$/,
      );
    },
    { defaultModel: "nobody/missing" },
  );
});

Deno.test("local-llm status marks an incomplete model folder as not ready", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/acme/broken`, { recursive: true });
    await Deno.writeTextFile(`${dir}/acme/broken/config.json`, "{}");
    await withEngine(async (engine) => {
      const { hint, ...status } = await engine.status();
      assert.deepEqual(status, {
        ready: false,
        models: [{ id: "acme/broken", name: "acme/broken", ready: false }],
      });
      assert.match(hint ?? "", /acme\/broken is incomplete \(missing tokenizer\.json/);
      await assert.rejects(engine.translate(job(english("hi"), "fr")), /incomplete/);
    }, { modelsDir: dir, defaultModel: "acme/broken" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("local-llm reports a model whose files do not load as unavailable and not ready", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const folder = `${dir}/acme/corrupt`;
    await Deno.mkdir(`${folder}/onnx`, { recursive: true });
    for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json"]) {
      await Deno.copyFile(`${MODELS_DIR}${NLLB}/${file}`, `${folder}/${file}`);
    }
    for (const session of ["encoder_model", "decoder_model_merged"]) {
      await Deno.writeTextFile(`${folder}/onnx/${session}.onnx`, "not a graph");
    }
    await withEngine(async (engine) => {
      assert.equal((await engine.status()).ready, true, "looks complete before a load");
      await assert.rejects(
        engine.translate(job(english("hi"), "fr")),
        (error) => error instanceof EngineUnavailableError && /failed to load/.test(error.message),
      );
      assert.deepEqual(await engine.status(), {
        ready: false,
        models: [{ id: "acme/corrupt", name: "acme/corrupt", ready: false }],
        hint: "model acme/corrupt failed to load",
      });
    }, { modelsDir: dir, defaultModel: "acme/corrupt" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
