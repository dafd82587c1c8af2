/**
 * The DeepL API under `/v1/compat/deepl`: POST /v2/translate, GET|POST /v2/languages,
 * GET|POST /v2/usage, and with a glossary store the v3 and v2 glossaries and GET
 * /v2/glossary-language-pairs. Thin: body → adapter → runTranslation → adapter.
 */
import {
  ABSENT_DEEPL_RESOURCES,
  DEEPL_CHARACTER_LIMIT,
  DEEPL_CLIENT,
  DEEPL_REFUSAL,
  fromDeepLRequest,
  toDeepLError,
  toDeepLLanguages,
  toDeepLResponse,
} from "../../../compat/deepl.ts";
import { serviceError } from "../../../errors/translation_errors.ts";
import type { GlossaryStore } from "../../../storage/glossary_store.ts";
import { glossaryReportHeader } from "../../../translation/glossary/glossary_step.ts";
import { runTranslation } from "../../../translation/run_translation.ts";
import { countCodePoints } from "../../../schemas/translation.ts";
import type { Context } from "hono";
import {
  compatApp,
  type CompatBodyOptions,
  type CompatRouteDeps,
  readCompatBody,
  requireCompatToken,
} from "./compat_app.ts";
import { deeplGlossariesRoute } from "./deepl_glossaries.ts";
import { deeplV2GlossariesRoute } from "./deepl_glossaries_v2.ts";
import { glossaryLanguagePairs, glossaryPairFor } from "../../../compat/deepl_glossaries.ts";
import { checkFormality, formalityHonoured } from "../../../compat/deepl_formality.ts";

/**
 * DeepL's resources tolk has none of, by the path deepl-node reaches them at (and every path
 * under it): deepl-node shows a 404's message, so it says what tolk does instead of "no such
 * endpoint".
 */
const ABSENT_PATHS: Readonly<Record<string, string>> = {
  "/v2/document": "tolk does not translate document files: send their text to /v2/translate " +
    "(with tag_handling=html, HTML keeps its markup)",
  "/v2/write": "DeepL Write (rephrasing) is not served by tolk",
  "/v3/style_rules": ABSENT_DEEPL_RESOURCES.style_id.instead,
  "/v3/translation_memories": ABSENT_DEEPL_RESOURCES.translation_memory_id.instead,
};

/** The glossary routes' paths, wherever the sub-app is mounted (`…/t/<token>/deepl/…` too). */
const GLOSSARY_PATHS = /\/v[23]\/glossaries(?:\/|$)/;

/** What {@link deeplTranslate} needs. */
export type DeepLTranslateDeps = CompatRouteDeps & { glossaries?: GlossaryStore };

/** Options of {@link deeplTranslate}. */
export interface DeepLTranslateOptions {
  /** How the body is read beyond its declared type. */
  body?: CompatBodyOptions;
  /** The history `client` of its requests (default {@link DEEPL_CLIENT}). */
  client?: string;
  /** Told the characters each answer bills (GET /v2/usage counts them). */
  onBilled?: (characters: number) => void;
}

/**
 * The handler of DeepL's POST /v2/translate (the token already checked): DeepL's sub-app serves
 * it, and so does DeepLX's `/v2/translate`, which DeepLX shapes as DeepL's official API.
 *
 * @example
 * ```ts
 * app.post("/v2/translate", deeplTranslate(deps, { onBilled: (n) => (billed += n) }));
 * ```
 */
export function deeplTranslate(deps: DeepLTranslateDeps, options: DeepLTranslateOptions = {}) {
  return async function deeplTranslateHandler(c: Context): Promise<Response> {
    const call = fromDeepLRequest(await readCompatBody(c, options.body), deps.policy());
    if (call.formality?.strict) {
      checkFormality(call.formality, await deps.translation.pipeline.firstReady());
    }
    const glossaryId = call.request.options?.glossary_id;
    const { source, target } = call.request;
    const glossaryPair = glossaryId && deps.glossaries
      ? glossaryPairFor(deps.glossaries.get(glossaryId), source ?? "auto", target)
      : undefined;
    const result = await runTranslation(deps.translation, call.request, {
      client: options.client ?? DEEPL_CLIENT,
      signal: c.req.raw.signal,
      glossaryPair,
    });
    const body = toDeepLResponse(result, call);
    // Billed whether or not the answer shows it (DeepL counts usage so).
    options.onBilled?.(
      call.request.texts.reduce((sum, text) => sum + countCodePoints(text), 0),
    );
    const response = c.json(body);
    if (result.glossary) {
      response.headers.set("Svc-Glossary-Report", glossaryReportHeader(result.glossary));
    }
    return response;
  };
}

/**
 * The `type` of a languages request: the body's, ahead of the query's, as DeepL reads it (a value
 * that is no string is passed on as one, to be refused by name).
 */
function languagesType(fromBody: unknown, fromQuery: string | undefined): string | undefined {
  return fromBody === undefined ? fromQuery : String(fromBody);
}

/**
 * The DeepL sub-app (`new DeepLClient(token, { serverUrl })` works unchanged against it), with
 * the v3 glossaries when the service has a glossary store.
 */
export function deeplRoute(deps: DeepLTranslateDeps) {
  let billed = 0;
  return compatApp(toDeepLError, { ...deps, dataPaths: GLOSSARY_PATHS }, (app) => {
    app.use(async (c, next) => {
      requireCompatToken(c, deps, DEEPL_REFUSAL);
      await next();
    })
      .post(
        "/v2/translate",
        deeplTranslate(deps, {
          onBilled: (characters) => {
            billed += characters;
          },
        }),
      )
      // DeepL stopped taking GET here in 2025; say so rather than "no such endpoint".
      .all("/v2/translate", () => {
        throw serviceError(
          "invalid_request",
          "send the texts with POST /v2/translate (form or JSON body); DeepL no longer takes GET",
        );
      })
      // DeepL takes POST here too, `type` in the body or the query (older clients POST).
      .on(["GET", "POST"], "/v2/languages", async (c) => {
        const body = c.req.method === "POST" ? await readCompatBody(c) : {};
        const type = languagesType(body.type, c.req.query("type"));
        const formality = formalityHonoured(await deps.translation.pipeline.firstReady());
        return c.json(toDeepLLanguages(type, formality));
      })
      .on(
        ["GET", "POST"],
        "/v2/usage",
        (c) => c.json({ character_count: billed, character_limit: DEEPL_CHARACTER_LIMIT }),
      )
      // DeepL's v1 API (CAT tools, old clients) takes the same fields as v2.
      .all("/v1/*", () => {
        throw serviceError(
          "not_found",
          "DeepL's v1 API is not served by tolk: send the same request to /v2/translate " +
            "(/v2/usage, /v2/languages)",
        );
      });
    for (const [path, message] of Object.entries(ABSENT_PATHS)) {
      for (const at of [path, `${path}/*`]) {
        app.all(at, () => {
          throw serviceError("not_found", message);
        });
      }
    }
    if (deps.glossaries) {
      app.route("/v3/glossaries", deeplGlossariesRoute({ glossaries: deps.glossaries }));
      app.route("/v2/glossaries", deeplV2GlossariesRoute({ glossaries: deps.glossaries }));
      app.get(
        "/v2/glossary-language-pairs",
        (c) => c.json({ supported_languages: glossaryLanguagePairs() }),
      );
    }
  });
}
