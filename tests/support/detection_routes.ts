/**
 * Every route that answers a language, asked about the same texts on one service: /v1/detect,
 * /v1/translate and the WebSocket with source auto, LibreTranslate's /detect and /translate,
 * DeepL's `detected_source_language` and DeepLX's `source_lang`. Each answer is written in
 * tolk's spelling where the route's own spelling maps back one to one, else in the route's.
 */
import { deepLSourceCode } from "../../compat/deepl.ts";
import { toLibreDetection } from "../../compat/libretranslate.ts";
import { DeepLTranslateResponseSchema } from "../../schemas/compat/deepl.ts";
import { DeepLXResponseSchema } from "../../schemas/compat/deeplx.ts";
import {
  LibreDetectResponseSchema,
  LibreTranslateResponseSchema,
} from "../../schemas/compat/libretranslate.ts";
import { DetectResponseSchema, TranslateResponseSchema } from "../../schemas/translation.ts";
import { expectBody, postJson } from "./http_assertions.ts";
import type { TestService } from "./translation_service.ts";
import { close, connect } from "./ws_client.ts";

/** The target every translating route is asked for. */
export const AGREEMENT_TARGET = "en";

/** One route's answers for the texts, one line per text (`route: answer`). */
export type RouteAnswers = Record<string, string[]>;

/**
 * What every route answers for `texts`, and what each compatibility route should answer given
 * /v1/detect's answers (its spelling of them).
 */
export async function answersOfEveryRoute(
  service: TestService,
  texts: readonly string[],
): Promise<{ answers: RouteAnswers; expected: RouteAnswers }> {
  const detected = await detectResults(service, texts);
  const libre = (i: number) => JSON.stringify(toLibreDetection(detected[i]));
  const deepL = (i: number) => deepLSourceCode(detected[i].language, AGREEMENT_TARGET);
  const own = detected.map((d) => d.language);
  const answers: RouteAnswers = {
    "/v1/detect": own,
    "/v1/translate": await translateSources(service, texts),
    "/v1/ws/translate": await socketSources(service, texts),
    "libre /detect": await libreDetections(service, texts),
    "libre /translate": await libreTranslateDetections(service, texts),
    "deepl /v2/translate": await deepLSources(service, texts),
    "deeplx /translate": await deepLXSources(service, texts),
  };
  const expected: RouteAnswers = {
    "/v1/detect": own,
    "/v1/translate": own,
    "/v1/ws/translate": own,
    "libre /detect": texts.map((_, i) => libre(i)),
    "libre /translate": texts.map((_, i) => libre(i)),
    "deepl /v2/translate": texts.map((_, i) => deepL(i)),
    "deeplx /translate": texts.map((_, i) => deepL(i)),
  };
  return { answers, expected };
}

async function detectResults(service: TestService, texts: readonly string[]) {
  const response = await postJson(`${service.url}/v1/detect`, { texts }, {
    "x-svc-token": service.token,
  });
  return (await expectBody(response, 200, DetectResponseSchema)).results;
}

async function translateSources(service: TestService, texts: readonly string[]) {
  const response = await postJson(
    `${service.url}/v1/translate`,
    { source: "auto", target: AGREEMENT_TARGET, texts },
    { "x-svc-token": service.token },
  );
  const body = await expectBody(response, 200, TranslateResponseSchema);
  return body.results.map((result) => result.detected_source);
}

async function socketSources(service: TestService, texts: readonly string[]) {
  const client = await connect(`${service.wsUrl}/v1/ws/translate?token=${service.token}`);
  try {
    client.socket.send(JSON.stringify({ source: "auto", target: AGREEMENT_TARGET, texts }));
    const reply = TranslateResponseSchema.parse(await client.next());
    return reply.results.map((result) => result.detected_source);
  } finally {
    await close(client);
  }
}

/** One text per request: LibreTranslate pools the detections of a batch into one list. */
async function libreDetections(service: TestService, texts: readonly string[]) {
  const answers: string[] = [];
  for (const q of texts) {
    const response = await postJson(`${service.url}/v1/compat/libre/detect`, {
      q,
      api_key: service.token,
    });
    const [first] = await expectBody(response, 200, LibreDetectResponseSchema);
    answers.push(JSON.stringify(first));
  }
  return answers;
}

async function libreTranslateDetections(service: TestService, texts: readonly string[]) {
  const response = await postJson(`${service.url}/v1/compat/libre/translate`, {
    q: texts,
    source: "auto",
    target: AGREEMENT_TARGET,
    api_key: service.token,
  });
  const body = await expectBody(response, 200, LibreTranslateResponseSchema);
  const detected = body.detectedLanguage;
  return Array.isArray(detected) ? detected.map((d) => JSON.stringify(d)) : [];
}

/**
 * One text per request: DeepL answers a letterless item in the language of the request's other
 * items, which a batch of mixed languages would make depend on its neighbours.
 */
async function deepLSources(service: TestService, texts: readonly string[]) {
  const answers: string[] = [];
  for (const text of texts) {
    const response = await postJson(
      `${service.url}/v1/compat/deepl/v2/translate`,
      { text: [text], target_lang: "EN-US" },
      { authorization: `DeepL-Auth-Key ${service.token}` },
    );
    const body = await expectBody(response, 200, DeepLTranslateResponseSchema);
    answers.push(body.translations[0].detected_source_language);
  }
  return answers;
}

async function deepLXSources(service: TestService, texts: readonly string[]) {
  const answers: string[] = [];
  for (const text of texts) {
    const response = await postJson(
      `${service.url}/v1/compat/deeplx/translate`,
      { text, source_lang: "auto", target_lang: "EN" },
      { authorization: `Bearer ${service.token}` },
    );
    answers.push((await expectBody(response, 200, DeepLXResponseSchema)).source_lang);
  }
  return answers;
}
