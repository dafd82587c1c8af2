import assert from "node:assert/strict";
import { join } from "node:path";
import {
  broadPermissionFlags,
  commandPermissions,
  permissionFlags,
} from "../../cli/permissions.ts";
import { tolkPermissionFlags } from "../support/tolk_process.ts";

const PROBE = new URL("../fixtures/permissions/probe.ts", import.meta.url).pathname;

/** Runs the probe under `flags` and returns `operation → outcome`. */
async function probe(flags: string[], operations: string[]): Promise<Record<string, string>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, PROBE, ...operations],
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return Object.fromEntries(stdout.trim().split("\n").map((line) => line.split(" ")));
}

async function withLoopbackServer(fn: (url: string) => Promise<void>) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok"),
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/`);
  } finally {
    await server.shutdown();
  }
}

Deno.test("under tolk serve's permissions the runtime refuses any request off loopback, subprocesses and files outside its folders", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tolk-permissions-" });
  try {
    const env = {
      TOLK_CONFIG: join(dir, "conf", "settings.json"),
      TOLK_DATA_DIR: join(dir, "data"),
    };
    await withLoopbackServer(async (loopback) => {
      const outcome = await probe(tolkPermissionFlags(["serve"], env), [
        `fetch:${loopback}`,
        "fetch:http://192.0.2.1/",
        "fetch:https://huggingface.co/",
        "run:true",
        "read:/etc/hostname",
        `write:${join(dir, "data", "history-probe")}`,
        `write:${join(dir, "elsewhere")}`,
      ]);
      assert.deepEqual(outcome, {
        [`fetch:${loopback}`]: "ok",
        "fetch:http://192.0.2.1/": "NotCapable",
        "fetch:https://huggingface.co/": "NotCapable",
        "run:true": "NotCapable",
        "read:/etc/hostname": "NotCapable",
        [`write:${join(dir, "data", "history-probe")}`]: "NotFound", // allowed; the folder is not there yet
        [`write:${join(dir, "elsewhere")}`]: "NotCapable",
      });
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tolk models pull may reach only the hub, and tolk token no network at all", async () => {
  await withLoopbackServer(async (loopback) => {
    const pull = tolkPermissionFlags(["models", "pull"], { TOLK_MODELS_DIR: "/tmp/unused-models" });
    assert.deepEqual(await probe(pull, ["fetch:http://192.0.2.1/", `fetch:${loopback}`]), {
      "fetch:http://192.0.2.1/": "NotCapable",
      [`fetch:${loopback}`]: "NotCapable",
    });
    const token = tolkPermissionFlags(["token", "show"], {
      TOLK_CONFIG: "/tmp/unused/settings.json",
    });
    assert.deepEqual(await probe(token, [`fetch:${loopback}`]), {
      [`fetch:${loopback}`]: "NotCapable",
    });
  });
});

Deno.test("a broad grant (the tolk task, the binary) is narrowed per command before it runs", async () => {
  await withLoopbackServer(async (loopback) => {
    const broad = ["--no-prompt", "--allow-net", "--allow-run", "--allow-read"];
    assert.deepEqual(await probe(broad, ["--drop", "settings", `fetch:${loopback}`, "run:true"]), {
      [`fetch:${loopback}`]: "NotCapable",
      "run:true": "NotCapable",
    });
    const listed = [
      "--no-prompt",
      "--allow-net=127.0.0.0/8,localhost,[::1],huggingface.co,*.huggingface.co,*.hf.co",
    ];
    const serve = await probe(listed, [
      "--drop",
      "serve",
      `fetch:${loopback}`,
      "fetch:https://cdn-lfs.hf.co/",
    ]);
    assert.deepEqual(serve, {
      [`fetch:${loopback}`]: "ok",
      "fetch:https://cdn-lfs.hf.co/": "NotCapable",
    });
  });
});

Deno.test("under a broad grant, only the commands that load the npm libraries keep --allow-sys", async () => {
  // The grant of the tolk task and the binary (a kind can be dropped only from a listed grant).
  const broad = broadPermissionFlags().filter((flag) => /^--(no-prompt|allow-sys=)/.test(flag));
  const outcomes: Record<string, string> = {};
  const commands = ["settings", "settings-link", "data", "models-list", "models-pull", "version"];
  for (const command of [...commands, "serve", "infer"]) {
    outcomes[command] = (await probe(broad, ["--drop", command, "sys:hostname"]))["sys:hostname"];
  }
  assert.deepEqual(outcomes, {
    version: "NotCapable",
    settings: "NotCapable",
    "settings-link": "NotCapable",
    data: "NotCapable",
    "models-list": "NotCapable",
    "models-pull": "NotCapable",
    serve: "ok",
    infer: "ok",
  });
});

/** A task's command as the flags deno receives (the task shell's single quotes removed). */
async function taskCommand(name: string): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  return config.tasks[name].command.replaceAll("'", "");
}

Deno.test("deno task start runs api enable and serve with exactly serve's permissions, on the default folders", async () => {
  const serve = permissionFlags(commandPermissions("serve", {
    appRoot: ".",
    config: "$HOME/.config/tolk/settings.json",
    dataDir: "$HOME/.local/share/tolk",
    modelsDir: "$HOME/.local/share/tolk/models",
  }));
  const run = `deno run --v8-flags=--max-semi-space-size=2,--no-memory-pool ${
    serve.join(" ")
  } main.ts`;
  assert.equal(await taskCommand("start"), `${run} api enable && ${run} serve`);
});

Deno.test("deno task tolk holds the broad grant that each command narrows, the binary's", async () => {
  // Unscoped FFI as in the binary: `tolk infer` needs it (README, Permissions); scoped to
  // node_modules, the README's `deno task tolk infer` could not load any model.
  const flags = broadPermissionFlags().join(" ");
  assert.equal(
    await taskCommand("tolk"),
    `deno run --v8-flags=--max-semi-space-size=2,--no-memory-pool ${flags} main.ts`,
  );
});
