/**
 * /settings/api/* — the settings page's data: read the state, switch the API, reveal, rotate or
 * revoke the token, switch the history, edit engines. Session cookie only (see app/translation_app.ts); every change
 * goes through the settings store, the one writer of the file, and reaches the running service
 * at once (token checks re-read the store; engines are rebuilt by `applyEngineSettings`).
 */
import { Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import type { EnginePipeline } from "../../engines/engine_pipeline.ts";
import { serviceError } from "../../errors/translation_errors.ts";
import { SESSION_COOKIE, type SettingsSessions } from "../../middleware/settings_session.ts";
import { isModelId, listInstalledModels } from "../../models/model_store.ts";
import type { ApiRoute } from "../../schemas/api_route.ts";
import { ENGINE_IDS } from "../../schemas/languages.ts";
import type { Settings } from "../../schemas/settings.ts";
import {
  ApiSwitchSchema,
  type EngineChange,
  EngineChangeSchema,
  HistorySwitchSchema,
  type PageState,
} from "../../schemas/settings_page.ts";
import {
  generateToken,
  SettingsFileError,
  type SettingsStore,
} from "../../settings/settings_store.ts";
import { validJson } from "./validated_request.ts";

/** What the page's endpoints need. */
export interface SettingsApiDeps {
  settings: SettingsStore;
  sessions: SettingsSessions;
  pipeline: EnginePipeline;
  /** Where local models are looked for. */
  modelsDir: string;
  /** Rebuilds the engines whose settings changed (see engines/engine_registry.ts). */
  applyEngineSettings: (settings: Settings) => void;
  /** The route table, for the compatibility base URLs the page shows. */
  routes: readonly ApiRoute[];
}

/** The page-data sub-app, mounted at `/settings/api`. */
export function settingsApiRoute(deps: SettingsApiDeps) {
  const compatBases = compatibilityBases(deps.routes);

  async function state(origin: string): Promise<PageState> {
    const settings = deps.settings.current();
    deps.applyEngineSettings(settings);
    const [reports, installed] = await Promise.all([
      deps.pipeline.reports(),
      listInstalledModels(deps.modelsDir),
    ]);
    return {
      api: { enabled: settings.api.enabled, has_token: settings.api.token !== null },
      history: { enabled: settings.history.enabled },
      engines: reports.map(({ engine, status }) => {
        const section = settings.engines[engine.id] as Record<string, unknown>;
        return {
          id: engine.id,
          name: engine.name,
          ready: status.ready,
          hint: status.ready ? null : status.hint ?? null,
          model: (section.model as string | null | undefined) ?? null,
          models: status.models?.map((model) => model.id) ?? null,
          base_url: (section.base_url as string | null | undefined) ?? null,
          has_api_key: typeof section.api_key === "string" && section.api_key !== "",
        };
      }),
      models_dir: deps.modelsDir,
      local_models: installed.map((model) => ({
        id: model.id,
        valid: model.valid,
        size_bytes: model.sizeBytes,
        problems: model.problems,
      })),
      base_url: origin,
      compat_base_urls: compatBases.map((base) => ({ name: base, base_url: origin + base })),
      settings_file_problem: fileProblem(deps.settings),
    };
  }

  function change(edit: (settings: Settings) => void): Settings {
    try {
      const settings = deps.settings.update(edit);
      deps.applyEngineSettings(settings);
      return settings;
    } catch (error) {
      if (!(error instanceof SettingsFileError)) throw error;
      // The field travels as `param`; the message says what is wrong with it. Without a field
      // the file itself is unusable (hand-edited into bad JSON, unwritable): the message names it.
      const field = error.field ?? null;
      const message = field === null
        ? error.message
        : error.reason.startsWith(`${field} `)
        ? error.reason.slice(field.length + 1)
        : error.reason;
      throw serviceError("invalid_request", message, { param: field });
    }
  }

  const origin = (c: { req: { header(name: string): string | undefined } }) =>
    `http://${c.req.header("host")}`;

  return new Hono()
    .get("/state", async (c) => c.json(await state(origin(c))))
    .post("/api", validJson(ApiSwitchSchema), async (c) => {
      const { enabled } = c.req.valid("json");
      change((settings) => {
        settings.api.enabled = enabled;
        if (enabled) settings.api.token ??= generateToken();
      });
      return c.json(await state(origin(c)));
    })
    .post("/token/reveal", (c) => c.json({ token: deps.settings.current().api.token }))
    .post("/token/rotate", async (c) => {
      change((settings) => {
        settings.api.token = generateToken();
      });
      return c.json(await state(origin(c)));
    })
    .post("/token/revoke", async (c) => {
      change((settings) => {
        settings.api.token = null;
      });
      return c.json(await state(origin(c)));
    })
    .post("/history", validJson(HistorySwitchSchema), async (c) => {
      const { enabled } = c.req.valid("json");
      change((settings) => {
        settings.history.enabled = enabled;
      });
      return c.json(await state(origin(c)));
    })
    .post("/engines", validJson(EngineChangeSchema), async (c) => {
      const request = c.req.valid("json");
      checkOrder(request.order);
      checkLocalModel(request);
      change((settings) => applyEngineChange(settings, request));
      return c.json(await state(origin(c)));
    })
    .post("/logout", (c) => {
      deps.sessions.close(getCookie(c, SESSION_COOKIE));
      deleteCookie(c, SESSION_COOKIE, { path: "/settings" });
      return c.body(null, 204);
    });
}

/** Why the file itself cannot be used, which `current()` hides by keeping the last good settings. */
function fileProblem(settings: SettingsStore): string | null {
  try {
    settings.read();
    return null;
  } catch (error) {
    if (error instanceof SettingsFileError) return error.message;
    throw error;
  }
}

function checkOrder(order: EngineChange["order"]): void {
  if (order === undefined) return;
  const complete = order.length === ENGINE_IDS.length && new Set(order).size === order.length;
  if (!complete) {
    throw serviceError(
      "invalid_request",
      `order must list every engine once: ${ENGINE_IDS.join(", ")}`,
      {
        param: "order",
      },
    );
  }
}

/** The built-in engine refuses any other id at its next request: refused here, the page says so. */
function checkLocalModel(change: EngineChange): void {
  const model = change.engines?.["local-llm"]?.model?.trim();
  if (model === undefined || isModelId(model)) return;
  throw serviceError(
    "invalid_request",
    "is not a model id (expected <org>/<name>, as `tolk models list` shows it)",
    { param: "engines.local-llm.model" },
  );
}

function applyEngineChange(settings: Settings, change: EngineChange): void {
  if (change.order) settings.engines.order = change.order;
  for (const [id, values] of Object.entries(change.engines ?? {})) {
    const section = settings.engines[id as keyof typeof change.engines & string] as Record<
      string,
      unknown
    >;
    for (const [key, value] of Object.entries(values ?? {})) {
      if (value !== undefined) {
        section[key] = typeof value === "string" ? value.trim() || null : value;
      }
    }
  }
}

/** `/v1/compat/<name>` of every compatibility family in the route table (URL-only `t/` aside). */
function compatibilityBases(routes: readonly ApiRoute[]): string[] {
  const bases = routes.map((route) => route.path.match(/^\/v1\/compat\/([^/{}]+)/)?.[0])
    .filter((base): base is string => base !== undefined && base !== "/v1/compat/t");
  return [...new Set(bases)];
}
