/**
 * Where the default folders are when the environment is odd, run as a reader runs tolk (`deno
 * task`, which runs its command in the checkout): a relative XDG_* base or an unset HOME must not
 * put the settings into the checkout or whatever folder the command ran in.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { runAsReader } from "../support/readme_commands.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

Deno.test("a relative XDG_CONFIG_HOME is ignored (XDG spec): api enable writes ~/.config/tolk", async () => {
  const home = await Deno.makeTempDir({ prefix: "tolk-xdg-home-" });
  const base = `xdg-${crypto.randomUUID()}`;
  try {
    const run = await runAsReader("deno task --quiet tolk api enable", home, {
      XDG_CONFIG_HOME: base,
    });
    const inCheckout = existsSync(join(ROOT, base));
    if (inCheckout) await Deno.remove(join(ROOT, base), { recursive: true });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!inCheckout, "nothing written into the checkout");
    assert.ok(existsSync(join(home, ".config", "tolk", "settings.json")), run.stderr);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("with HOME unset the default settings file is under the user's home, not the checkout", async () => {
  const home = await Deno.makeTempDir({ prefix: "tolk-nohome-" });
  try {
    // Only reads: `token show` names the file it looked in (or prints the token found there).
    const run = await runAsReader("env -u HOME deno task --quiet tolk token show", home);
    assert.ok(!run.stderr.includes(ROOT), run.stderr);
    if (run.code === 1) {
      assert.match(run.stderr, new RegExp(`^no token in ${homedir()}/\\.config/tolk/`));
    } else assert.equal(run.code, 0, run.stderr);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
