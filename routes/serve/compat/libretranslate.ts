/**
 * The LibreTranslate API under `/v1/compat/libre` (and `/v1/compat/t/<token>/libre`):
 * POST /translate, POST /detect, GET /languages, GET /frontend/settings, and LibreTranslate's
 * disabled-feature refusals of POST /translate_file and /suggest. Thin: body → adapter →
 * runTranslation → adapter. The two GET routes are open, as in LibreTranslate: front ends read
 * them before they have a key.
 */
import type { Detection } from "../../../detection/language_detector.ts";
import {
  fromLibreDetectRequest,
  fromLibreRequest,
  LIBRE_CLIENT,
  LIBRE_DISABLED,
  LIBRE_REFUSAL,
  toLibreDetections,
  toLibreError,
  toLibreFrontendSettings,
  toLibreLanguages,
  toLibreResponse,
} from "../../../compat/libretranslate.ts";
import { detectionText } from "../../../translation/detection_reading.ts";
import { runTranslation } from "../../../translation/run_translation.ts";
import {
  compatApp,
  type CompatRouteDeps,
  readCompatBody,
  requireCompatToken,
} from "./compat_app.ts";

/** The LibreTranslate sub-app. */
export function libreTranslateRoute(deps: CompatRouteDeps) {
  const { detector } = deps.translation;
  return compatApp(toLibreError, deps, (app) =>
    app
      .post("/translate", async (c) => {
        const body = await readCompatBody(c, { libreValues: true });
        requireCompatToken(c, deps, LIBRE_REFUSAL, body);
        const call = fromLibreRequest(body, deps.policy());
        let detections: readonly Detection[] = [];
        const result = await runTranslation(deps.translation, call.request, {
          client: LIBRE_CLIENT,
          signal: c.req.raw.signal,
          onDetected: (planned) => detections = planned,
        });
        return c.json(toLibreResponse(result, call, detections));
      })
      .post("/detect", async (c) => {
        const body = await readCompatBody(c, { libreValues: true });
        requireCompatToken(c, deps, LIBRE_REFUSAL, body);
        const texts = fromLibreDetectRequest(body);
        return c.json(
          toLibreDetections(texts, texts.map((text) => detector.detect(detectionText(text)))),
        );
      })
      // Refused before the key and the body are read, as LibreTranslate refuses suggestions:
      // the answer is the same for everyone and names nothing of the request.
      .post("/translate_file", () => {
        throw LIBRE_DISABLED.files();
      })
      .post("/suggest", () => {
        throw LIBRE_DISABLED.suggestions();
      })
      .get("/languages", (c) => c.json(toLibreLanguages()))
      .get("/frontend/settings", (c) => c.json(toLibreFrontendSettings())));
}
