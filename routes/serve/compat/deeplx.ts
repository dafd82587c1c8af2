/**
 * DeepLX's translate paths under `/v1/compat/deeplx` (and `/v1/compat/t/<token>/deeplx`), token
 * by `?token=`, Bearer, DeepL-Auth-Key or the path, as DeepLX's server serves them: `/translate`
 * and `/v1/translate` (its Pro-account endpoint, the same fields) in DeepLX's shape, and
 * `/v2/translate` in DeepL's official shape, the DeepL route's own handler. Thin: body → adapter
 * → runTranslation → adapter.
 *
 * DeepLX's own `/v2/translate` joins a request's texts with line feeds and answers one
 * translation; tolk answers one per text, as DeepL does: the clients of this path speak DeepL and
 * pair each translation with its text (deepl-node's `translateText` of n texts returns n results),
 * and a one-text request gets the same answer either way.
 *
 * DeepLX's `/v1/translate` is `/v1/compat/deeplx/v1/translate` here, so it never meets tolk's own
 * `/v1/translate`: every DeepLX client is given a base URL, never the server's root.
 */
import type { Context } from "hono";
import {
  DEEPLX_CLIENT,
  DEEPLX_REFUSAL,
  fromDeepLXRequest,
  toDeepLXError,
  toDeepLXResponse,
} from "../../../compat/deeplx.ts";
import { runTranslation } from "../../../translation/run_translation.ts";
import {
  compatApp,
  type CompatBodyOptions,
  readCompatBody,
  requireCompatToken,
} from "./compat_app.ts";
import { deeplTranslate, type DeepLTranslateDeps } from "./deepl.ts";

/** DeepLX's server binds every body as JSON, whatever its Content-Type (forms too on /v2). */
const DEEPLX_BODY: CompatBodyOptions = { jsonWhateverType: true };

/** The DeepLX sub-app. */
export function deeplxRoute(deps: DeepLTranslateDeps) {
  /** `handler` behind the token, on these paths only: another path stays a plain 404. */
  const withToken = (handler: (c: Context) => Promise<Response>) => (c: Context) => {
    requireCompatToken(c, deps, DEEPLX_REFUSAL);
    return handler(c);
  };
  const translate = withToken(async (c) => {
    const call = fromDeepLXRequest(await readCompatBody(c, DEEPLX_BODY), deps.policy());
    const result = await runTranslation(deps.translation, call.request, {
      client: DEEPLX_CLIENT,
      signal: c.req.raw.signal,
    });
    return c.json(toDeepLXResponse(result, call));
  });
  const translateAsDeepL = withToken(
    deeplTranslate(deps, { body: DEEPLX_BODY, client: DEEPLX_CLIENT }),
  );
  return compatApp(toDeepLXError, deps, (app) =>
    app
      .post("/translate", translate)
      .post("/v1/translate", translate)
      .post("/v2/translate", translateAsDeepL));
}
