/**
 * `sensitive: true` is provable (issue 12, point 5): requests carrying a unique marker go through
 * a real `tolk serve` process with memory and a glossary on, over HTTP and the WebSocket, and
 * afterwards no file under the data directory (the database, its -wal and -shm included) and
 * nothing the process printed holds the marker.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startOllamaStandIn } from "../support/ollama_stand_in.ts";
import { serveArgs, startTolkServer } from "../support/tolk_process.ts";
import { TEST_TOKEN } from "../support/translation_service.ts";
import { indexOfBytes } from "../support/bytes_search.ts";

async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await filesUnder(path));
    else if (entry.isFile) files.push(path);
  }
  return files;
}

async function filesHolding(dir: string, marker: string): Promise<string[]> {
  const needle = new TextEncoder().encode(marker);
  const holding: string[] = [];
  for (const file of await filesUnder(dir)) {
    const bytes = await Deno.readFile(file);
    if (indexOfBytes(bytes, needle) >= 0) holding.push(file);
  }
  return holding;
}

Deno.test("sensitive requests leave no trace in the data directory (-wal and -shm included) or the output", async () => {
  const marker = `zq${crypto.randomUUID().replaceAll("-", "")}`;
  const runner = startOllamaStandIn({ glossary: "apply" });
  const dir = await Deno.makeTempDir({ prefix: "tolk-sensitive-" });
  const dataDir = join(dir, "data");
  const config = join(dir, "settings.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      api: { enabled: true, token: TEST_TOKEN },
      engines: { "engine-one": { base_url: runner.baseUrl } },
    }),
  );
  const server = await startTolkServer(
    serveArgs({ config, dataDir, modelsDir: join(dir, "models") }),
  );
  try {
    const headers = { "x-svc-token": TEST_TOKEN, "content-type": "application/json" };
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const glossary = await (await post("/v1/glossaries", {
      name: "Terms",
      dictionaries: [{
        source_lang: "en",
        target_lang: "de",
        entries: "database\tDatenbank\n",
        entries_format: "tsv",
      }],
    })).json();
    // Ordinary traffic first, so the database and its WAL are written while the marker passes.
    assert.equal(
      (await post("/v1/translate", {
        source: "en",
        target: "de",
        texts: ["An ordinary sentence about the database."],
        options: { engine: "engine-one", memory: true, glossary_id: glossary.glossary_id },
      })).status,
      200,
    );
    const sensitive = {
      source: "en",
      target: "de",
      texts: [`The database password is ${marker}.`, `${marker}`],
      options: {
        engine: "engine-one",
        memory: true,
        glossary_id: glossary.glossary_id,
        sensitive: true,
      },
    };
    for (let i = 0; i < 3; i++) assert.equal((await post("/v1/translate", sensitive)).status, 200);
    const refused = await post("/v1/translate", {
      ...sensitive,
      options: { ...sensitive.options, glossary_id: marker },
    });
    assert.equal(refused.status, 400);
    await refused.body?.cancel();

    const socket = new WebSocket(
      `${server.url.replace("http", "ws")}/v1/ws/translate?token=${TEST_TOKEN}`,
    );
    await new Promise((resolve) => socket.onopen = resolve);
    const reply = new Promise<string>((resolve) =>
      socket.onmessage = (event) => resolve(event.data)
    );
    socket.send(JSON.stringify(sensitive));
    assert.ok((await reply).includes(marker), "the translation itself carries the marker back");
    socket.close(1000);

    assert.ok(JSON.stringify(runner.chats).includes(marker), "the engine saw the marker");
    const running = (await filesUnder(dataDir)).map((file) => file.slice(dataDir.length + 1));
    assert.ok(
      running.includes("tolk.sqlite3-wal") && running.includes("tolk.sqlite3-shm"),
      running.join(),
    );
    assert.deepEqual(await filesHolding(dataDir, marker), [], "while running");
  } finally {
    assert.equal(await server.stop(), 0);
    await runner.stop();
  }
  assert.deepEqual(await filesHolding(dataDir, marker), [], "after shutdown");
  // stdout carries only the `listening on` line; every log line goes to stderr.
  const output = server.stderr.join("\n");
  assert.ok(!output.includes(marker), "process output");
  assert.ok(output.length > 0, "the process did log (access lines)");
  const names = (await filesUnder(dataDir)).map((file) => file.slice(dataDir.length + 1));
  assert.ok(names.includes("tolk.sqlite3"), names.join(", "));
  await Deno.remove(dir, { recursive: true });
});
