/**
 * POST /v1/detect — the language of each item, no translation.
 */
import { Hono } from "hono";
import type { LanguageDetector } from "../../detection/language_detector.ts";
import { serviceError } from "../../errors/translation_errors.ts";
import { ENGINE_IDS } from "../../schemas/languages.ts";
import {
  countCodePoints,
  DetectRequestSchema,
  type DetectResponse,
} from "../../schemas/translation.ts";
import { detectionText } from "../../translation/detection_reading.ts";
import { successJson } from "./success_response.ts";
import { validJson } from "./validated_request.ts";

/** The detect sub-app. */
export function detectRoute(deps: { detector: LanguageDetector }) {
  return new Hono().post("/", validJson(DetectRequestSchema), (c) => {
    const started = performance.now();
    const request = c.req.valid("json");
    const detectorName = pickDetector(deps.detector, request.options?.engine);
    const body: DetectResponse = {
      id: `det_${crypto.randomUUID()}`,
      object: "language_detection",
      created: Math.floor(Date.now() / 1000),
      results: request.texts.map((text, index) => ({
        index,
        ...deps.detector.detect(detectionText(text), detectorName),
      })),
      usage: {
        input_chars: request.texts.reduce((sum, text) => sum + countCodePoints(text), 0),
        latency_ms: Math.round(performance.now() - started),
      },
    };
    return successJson(c, body);
  });
}

/**
 * `options.engine` names a detector; `auto` and translation engine ids (clients reuse their
 * translate options) mean the default one.
 */
function pickDetector(detector: LanguageDetector, engine: unknown): string {
  if (engine === undefined || engine === null || engine === "auto") return detector.defaultName;
  if (typeof engine === "string" && (ENGINE_IDS as readonly string[]).includes(engine)) {
    return detector.defaultName;
  }
  if (typeof engine === "string" && detector.names.includes(engine)) return engine;
  throw serviceError(
    "invalid_request",
    `options.engine must be auto or one of the detectors: ${detector.names.join(", ")}`,
    { param: "options.engine" },
  );
}
