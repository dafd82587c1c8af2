/**
 * DeepLX's POST /translate under `/v1/compat/deeplx` (and `/v1/compat/t/<token>/deeplx`), token
 * by `?token=`, Bearer or the path. Thin: body → adapter → runTranslation → adapter.
 */
import {
  DEEPLX_CLIENT,
  fromDeepLXRequest,
  toDeepLXError,
  toDeepLXResponse,
} from "../../../compat/deeplx.ts";
import { runTranslation } from "../../../translation/run_translation.ts";
import {
  compatApp,
  compatNotFound,
  type CompatRouteDeps,
  presentedCompatToken,
  readCompatBody,
  requireCompatToken,
} from "./compat_app.ts";

const REFUSAL = { missing: "Invalid access token", wrong: "Invalid access token" };

/** The DeepLX sub-app. */
export function deeplxRoute(deps: CompatRouteDeps) {
  return compatApp(toDeepLXError, deps.log)
    .post("/translate", async (c) => {
      requireCompatToken(presentedCompatToken(c), deps.currentToken(), REFUSAL);
      const call = fromDeepLXRequest(await readCompatBody(c), deps.policy());
      const result = await runTranslation(deps.translation, call.request, {
        client: DEEPLX_CLIENT,
        signal: c.req.raw.signal,
      });
      return c.json(toDeepLXResponse(result, call));
    })
    .all("*", compatNotFound);
}
