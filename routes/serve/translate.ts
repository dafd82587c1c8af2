/**
 * POST /v1/translate — a batch of items into one target language.
 */
import { Hono } from "hono";
import { JSON_BODY_ERRORS } from "../../errors/translation_errors.ts";
import type { ClientHeaderVariables } from "../../middleware/client_header.ts";
import { jsonBody } from "../../middleware/json_body.ts";
import { TranslateRequestSchema } from "../../schemas/translation.ts";
import { glossaryReportHeader } from "../../translation/glossary/glossary_step.ts";
import { successJson } from "./success_response.ts";
import { runTranslation, type TranslationDeps } from "../../translation/run_translation.ts";

/** The translate sub-app. */
export function translateRoute(deps: TranslationDeps) {
  return new Hono<{ Variables: ClientHeaderVariables }>().post(
    "/",
    jsonBody(TranslateRequestSchema, JSON_BODY_ERRORS),
    async (c) => {
      let glossaryReport: string | undefined;
      const body = await runTranslation(deps, c.req.valid("json"), {
        client: c.get("client") ?? null,
        signal: c.req.raw.signal,
        onGlossaryReport: (report) => glossaryReport = glossaryReportHeader(report),
      });
      const response = successJson(c, body);
      if (glossaryReport) response.headers.set("Svc-Glossary-Report", glossaryReport);
      return response;
    },
  );
}
