/**
 * Items through the real service on loopback in one `format`/`mode`, translated by engine-one
 * against an Ollama stand-in that upper-cases the text outside placeholders: tests compare the
 * whole output byte for byte and see exactly which texts reached the engine.
 */
import assert from "node:assert/strict";
import { TranslateResponseSchema } from "../../schemas/translation.ts";
import { upperCase } from "./format_engines.ts";
import { expectBody } from "./http_assertions.ts";
import { startOllamaStandIn } from "./ollama_stand_in.ts";
import { postTranslate, withTranslationService } from "./translation_service.ts";

/** What came back for a request, and every text the engine was given (placeholders in). */
export interface TranslatedItems {
  texts: string[];
  sent: string[];
}

/**
 * Translates `texts` from en (or `fields.source`) into de with `fields` (`mode`, `format`) in one
 * request.
 *
 * @example
 * ```ts
 * const { texts, sent } = await translateUpperCased(["Hi @ana"], { mode: "message" });
 * ```
 */
export function translateUpperCased(
  texts: string[],
  fields: { mode: string; format?: string; source?: string },
): Promise<TranslatedItems> {
  return translateThrough(texts, fields, upperCase);
}

/**
 * Translates `texts` as {@link translateUpperCased} does, the stand-in answering with
 * `translate` (an answer that holds syntax of the format, words moved, …).
 */
export async function translateThrough(
  texts: string[],
  fields: { mode: string; format?: string; source?: string },
  translate: (text: string) => string,
): Promise<TranslatedItems> {
  const sent: string[] = [];
  const runner = startOllamaStandIn({
    translate: (text) => {
      sent.push(text);
      return translate(text);
    },
  });
  const result: TranslatedItems = { texts: [], sent };
  try {
    await withTranslationService(async (service) => {
      const response = await postTranslate(service, {
        source: "en",
        target: "de",
        ...fields,
        options: { engine: "engine-one" },
        texts,
      });
      const body = await expectBody(response, 200, TranslateResponseSchema);
      result.texts = body.results.map((item) => item.text);
    }, {
      settings: { engines: { "engine-one": { base_url: runner.baseUrl, status_cache_ms: 0 } } },
    });
  } finally {
    await runner.stop();
  }
  return result;
}

/** An item, what comes back for it, and the texts the engine must be given for it. */
export interface Shape {
  item: string;
  expected: string;
  sent: string[];
}

/**
 * Translates the shapes' items in one request (upper-cased) and checks each output byte for
 * byte and the texts sent, in any order.
 */
export async function assertShapes(
  shapes: Shape[],
  fields: { mode: string; format?: string },
): Promise<void> {
  const { texts, sent } = await translateUpperCased(shapes.map((shape) => shape.item), fields);
  assert.deepEqual(texts, shapes.map((shape) => shape.expected));
  assert.deepEqual(sent.toSorted(), shapes.flatMap((shape) => shape.sent).toSorted());
}
