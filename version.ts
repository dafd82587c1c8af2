/**
 * The application's version text, `<semver> (<build>)`, shared by both services.
 *
 * `compile.sh` stamps the build through `TOLK_BUILD`; a source checkout reports `dev`.
 */

/** Semantic version of this tree. */
export const SEMVER = "0.1.0";

/** Version text for health and status responses, e.g. `0.1.0 (2026-11-20.abc1234)`. */
export const APP_VERSION = `${SEMVER} (${readBuild()})`;

function readBuild(): string {
  try {
    return Deno.env.get("TOLK_BUILD") || "dev";
  } catch {
    return "dev"; // no --allow-env: still a valid version text
  }
}
