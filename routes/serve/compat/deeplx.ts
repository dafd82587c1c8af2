/**
 * DeepLX's POST /translate under `/v1/compat/deeplx` (and `/v1/compat/t/<token>/deeplx`), token
 * by `?token=`, Bearer or the path. Thin: body → adapter → runTranslation → adapter.
 */
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
  type CompatRouteDeps,
  readCompatBody,
  requireCompatToken,
} from "./compat_app.ts";

/** The DeepLX sub-app. */
export function deeplxRoute(deps: CompatRouteDeps) {
  return compatApp(toDeepLXError, deps, (app) =>
    app
      .post("/translate", async (c) => {
        requireCompatToken(c, deps.currentToken(), DEEPLX_REFUSAL);
        const call = fromDeepLXRequest(
          await readCompatBody(c, { jsonWhateverType: true }),
          deps.policy(),
        );
        const result = await runTranslation(deps.translation, call.request, {
          client: DEEPLX_CLIENT,
          signal: c.req.raw.signal,
        });
        return c.json(toDeepLXResponse(result, call));
      }));
}
