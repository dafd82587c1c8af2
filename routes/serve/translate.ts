/**
 * POST /v1/translate — a batch of items into one target language.
 */
import { Hono } from "hono";
import type { ClientHeaderVariables } from "../../middleware/client_header.ts";
import { TranslateRequestSchema } from "../../schemas/translation.ts";
import { glossaryReportHeader } from "../../translation/glossary/glossary_step.ts";
import { successJson } from "./success_response.ts";
import { runTranslation, type TranslationDeps } from "../../translation/run_translation.ts";
import { validJson } from "./validated_request.ts";

/** The translate sub-app. */
export function translateRoute(deps: TranslationDeps) {
  return new Hono<{ Variables: ClientHeaderVariables }>().post(
    "/",
    validJson(TranslateRequestSchema),
    async (c) => {
      const body = await runTranslation(deps, c.req.valid("json"), {
        client: c.get("client") ?? null,
        signal: c.req.raw.signal,
      });
      const response = successJson(c, body);
      if (body.glossary) {
        response.headers.set("Svc-Glossary-Report", glossaryReportHeader(body.glossary));
      }
      return response;
    },
  );
}
