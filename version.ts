/**
 * The application's version text, `<semver> (<build>)`, shared by both services.
 *
 * `compile.sh` stamps the build through `TOLK_BUILD`; a source checkout reports `dev`.
 */
import { environment } from "./settings/environment.ts";

/** Semantic version of this tree. */
export const SEMVER = "0.1.0";

/** Version text for health and status responses, e.g. `0.1.0 (2026-11-20.abc1234)`. */
export const APP_VERSION = `${SEMVER} (${readBuild()})`;

function readBuild(): string {
  try {
    return environment().TOLK_BUILD ?? "dev";
  } catch {
    return "dev"; // another variable is unusable: the command line reports it, not the version
  }
}
