import assert from "node:assert/strict";
import { join } from "node:path";
import { indexOfBytes } from "../support/bytes_search.ts";
import { withTempDir } from "../support/temp_dir.ts";
import { generateToken, SettingsFileError, SettingsStore } from "../../settings/settings_store.ts";

async function withStore(fn: (store: SettingsStore, path: string) => Promise<void> | void) {
  const dir = await Deno.makeTempDir({ prefix: "tolk-settings-test-" });
  try {
    const path = join(dir, "nested", "settings.json");
    await fn(new SettingsStore(path), path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("SettingsStore.ensure creates the file with the API off, mode 0600", async () => {
  await withStore(async (store, path) => {
    const { settings, created } = store.ensure();
    assert.equal(created, true);
    assert.equal(settings.api.enabled, false);
    assert.equal(settings.api.token, null);
    assert.deepEqual(settings.engines.order, [
      "local-llm",
      "engine-one",
      "engine-two",
      "compatible-api",
    ]);
    assert.equal(settings.engines["engine-one"].base_url, "http://127.0.0.1:11434");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.equal(store.ensure().created, false);
  });
});

Deno.test("SettingsStore.update keeps unknown keys and leaves no temporary file", async () => {
  await withStore(async (store, path) => {
    store.ensure();
    const raw = JSON.parse(await Deno.readTextFile(path));
    raw.theme = "dark";
    raw.engines["engine-one"].keep_alive = "5m";
    await Deno.writeTextFile(path, JSON.stringify(raw));
    store.update((s) => {
      s.api.enabled = true;
    });
    const after = JSON.parse(await Deno.readTextFile(path));
    assert.equal(after.theme, "dark");
    assert.equal(after.engines["engine-one"].keep_alive, "5m");
    assert.equal(after.api.enabled, true);
    const names = [...Deno.readDirSync(join(path, ".."))].map((e) => e.name);
    assert.deepEqual(names, ["settings.json"]);
  });
});

const CORRUPT_FILES = [
  { name: "not JSON", text: "{ nope", reason: /not valid JSON/ },
  { name: "an array", text: "[]", reason: /one JSON object/ },
  { name: "a wrong type", text: '{"api":{"enabled":"yes"}}', reason: /api\.enabled/ },
  {
    name: "a remote engine",
    text: '{"engines":{"compatible-api":{"base_url":"https://api.example.com"}}}',
    reason: /loopback/,
  },
  {
    name: "an engine address holding a password",
    text: '{"engines":{"engine-two":{"base_url":"http://user:pw@127.0.0.1:1234"}}}',
    reason: /user name or password \(a key goes in api_key\)/,
  },
];

Deno.test("SettingsStore refuses a corrupt file with its path and never overwrites it", async () => {
  await withStore(async (store, path) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    for (const row of CORRUPT_FILES) {
      await Deno.writeTextFile(path, row.text);
      for (
        const action of [() => store.read(), () => store.ensure(), () => store.update(() => {})]
      ) {
        assert.throws(action, (error: Error) => {
          assert.ok(error instanceof SettingsFileError, row.name);
          assert.ok(error.message.includes(path));
          assert.match(error.message, row.reason);
          return true;
        });
      }
      assert.equal(await Deno.readTextFile(path), row.text, row.name);
    }
  });
});

Deno.test("SettingsStore.current sees a change written by another process", async () => {
  await withStore((store) => {
    store.ensure();
    assert.equal(store.current().api.token, null);
    const other = new SettingsStore(store.path);
    const token = other.update((s) => {
      s.api.token = generateToken();
    }).api.token;
    assert.equal(store.current().api.token, token);
  });
});

/** Runs `fn` and returns what it wrote with console.error (the service's log), one entry a call. */
function loggedBy(fn: () => void): string[] {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => lines.push(args.join(" "));
  try {
    fn();
  } finally {
    console.error = original;
  }
  return lines;
}

Deno.test("SettingsStore.update on a file gone while running recreates it from the settings in use, said once", async () => {
  await withStore((store, path) => {
    const token = generateToken();
    store.update((s) => {
      s.api.enabled = true;
      s.api.token = token;
    });
    store.current();
    Deno.removeSync(path);
    const lines = loggedBy(() => {
      store.update((s) => {
        s.compat.memory = true;
      });
      store.update((s) => {
        s.compat.sensitive = true;
      });
    });
    assert.deepEqual(lines, [
      `settings file ${path} was gone; recreated it from the settings in use`,
    ]);
    const written = new SettingsStore(path).read();
    assert.deepEqual(written.api, { enabled: true, token });
    assert.deepEqual(written.compat, { sensitive: true, memory: true });
  });
});

Deno.test("SettingsStore.update with no file and nothing read yet starts from the defaults, silently", async () => {
  await withStore((store, path) => {
    const lines = loggedBy(() => store.update((s) => (s.api.enabled = true)));
    assert.deepEqual(lines, []);
    assert.equal(new SettingsStore(path).read().api.enabled, true);
  });
});

Deno.test("generateToken makes 32 random bytes as base64url", () => {
  const tokens = new Set(Array.from({ length: 50 }, generateToken));
  assert.equal(tokens.size, 50);
  for (const token of tokens) assert.match(token, /^[A-Za-z0-9_-]{43}$/);
});

/** The names of the files of `dir` holding `text`. */
function filesHolding(dir: string, text: string): string[] {
  const needle = new TextEncoder().encode(text);
  return [...Deno.readDirSync(dir)].map((entry) => entry.name)
    .filter((name) => indexOfBytes(Deno.readFileSync(join(dir, name)), needle) >= 0);
}

Deno.test("SettingsStore.update through a symlinked settings file (dotfiles) writes the link's target: no old token left there, the link stays", async () => {
  await withTempDir("tolk-settings-link-", (dir) => {
    const target = join(dir, "dotfiles", "settings.json");
    const link = join(dir, "config", "settings.json");
    Deno.mkdirSync(join(dir, "dotfiles"));
    Deno.mkdirSync(join(dir, "config"));
    const old = generateToken();
    Deno.writeTextFileSync(target, JSON.stringify({ api: { enabled: true, token: old } }));
    Deno.symlinkSync(target, link);
    const rotated = generateToken();
    new SettingsStore(link).update((settings) => settings.api.token = rotated);
    assert.ok(Deno.lstatSync(link).isSymlink, "the link stays a link");
    assert.deepEqual(filesHolding(join(dir, "dotfiles"), old), []);
    assert.deepEqual(filesHolding(join(dir, "dotfiles"), rotated), ["settings.json"]);
    assert.equal(Deno.statSync(target).mode! & 0o777, 0o600);
  });
});

Deno.test("SettingsStore.update removes a temporary file a killed write left beside the settings file (it held a token), not one being written", async () => {
  await withTempDir("tolk-settings-stale-", (dir) => {
    const path = join(dir, "settings.json");
    const store = new SettingsStore(path);
    store.update((settings) => settings.api.token = generateToken());
    const old = generateToken();
    const stale = `${path}.4242.${crypto.randomUUID()}.tmp`;
    const fresh = `${path}.4343.${crypto.randomUUID()}.tmp`;
    for (const temp of [stale, fresh]) {
      Deno.writeTextFileSync(temp, JSON.stringify({ api: { enabled: true, token: old } }));
    }
    // A write takes milliseconds: one an hour old was cut short by a kill or a power cut.
    const hourAgo = new Date(Date.now() - 3600_000);
    Deno.utimeSync(stale, hourAgo, hourAgo);
    store.update((settings) => settings.api.token = generateToken());
    assert.deepEqual(filesHolding(dir, old), [fresh.slice(dir.length + 1)]);
  });
});
