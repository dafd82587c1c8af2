/**
 * CI check of `compile.sh` (run by .ci/run; README "The binary"): builds the binary with
 * `DENORT_BIN` pointing at the local deno, since this machine cannot download a `denort`
 * runtime, prints the embedded tree from the compile output, and proves that every native
 * library of onnxruntime-node and node-llama-cpp and every data file is inside the binary by
 * finding a slice of each file's bytes in it.
 *
 * The binary is not run: with deno as its runtime it starts Deno, not tolk.
 *
 * Usage: deno run -A tests/compile/compile_check.ts   (exit 0 when everything is embedded)
 */
import { Buffer } from "node:buffer";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Folders whose every file must be embedded (the native addons and the libraries beside them). */
const NATIVE_DIRS = [
  "node_modules/onnxruntime-node/bin/napi-v6/linux/x64",
  "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64",
];

/** Data the program reads at run time. */
const DATA_FILES = [
  "detection/data/eld_medium_table.json",
  "detection/data/malay_lexicon.json",
  "engines/chat/prompts.json",
  "web/settings/page.html",
  "web/settings/index_body.html",
  "web/settings/no_session_body.html",
  "web/settings/settings.css",
  "web/settings/settings.js",
  "web/settings/engines.js",
];

/** Lines the compile output's tree must show, and lines it must not (left out on purpose). */
const TREE_HAS = [
  // Shown as "data/malay_lexicon.json" alone, or under a "data" branch beside other files.
  /malay_lexicon\.json/,
  /eld_medium_table\.json/,
  // The built-in engine's model worker: started by URL, so only --include puts it in.
  /model_worker\.ts/,
  // tolk infer's decode worker, started by URL too. Shown as "inference/*" when the tree embeds
  // every file of that folder (the worker imports most of them), by name otherwise.
  /decode_worker\.ts|── inference\/\*/,
  // The TMX import's reader, started by URL as well; "translation/*" when the tree embeds every
  // file of that folder (the service imports most of them).
  /tmx_worker\.ts|── translation\/(memory\/)?\*/,
  /linux\/x64\/\*/,
  /@node-llama-cpp\/\*/,
];
const TREE_LACKS = [/playwright-core/, /deepl-node/, /darwin\/arm64/, /\.bin\//];

async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    if (entry.isFile) files.push(join(dir, entry.name));
  }
  return files.sort();
}

/** True when a slice from the middle of `path` occurs in `binary`. */
async function isEmbedded(binary: Buffer, path: string): Promise<boolean> {
  const bytes = await Deno.readFile(join(ROOT, path));
  const start = Math.floor(bytes.length / 2);
  const slice = bytes.subarray(Math.max(0, start - 128), Math.min(bytes.length, start + 128));
  return binary.indexOf(slice) !== -1;
}

const out = await Deno.makeTempDir({ prefix: "tolk-compile-" });
let failures = 0;
function check(ok: boolean, what: string) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

try {
  const denort = await Deno.realPath(Deno.execPath());
  const compiled = await new Deno.Command("bash", {
    args: [join(ROOT, "compile.sh"), join(out, "tolk")],
    cwd: ROOT,
    env: { DENORT_BIN: denort, DENO: denort, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(compiled.stdout) +
    new TextDecoder().decode(compiled.stderr);
  const tree = log.slice(log.indexOf("Embedded Files"));
  console.log(tree.trim());
  check(compiled.code === 0, `compile.sh with DENORT_BIN=${denort} exits 0`);
  for (const pattern of TREE_HAS) check(pattern.test(tree), `the embedded tree shows ${pattern}`);
  for (const pattern of TREE_LACKS) {
    check(!pattern.test(tree), `the embedded tree leaves out ${pattern}`);
  }

  if (compiled.code === 0) {
    const binary = Buffer.from(await Deno.readFile(join(out, "tolk")));
    console.log(`binary: ${(binary.length / 1e6).toFixed(1)} MB`);
    const wanted = [...(await Promise.all(NATIVE_DIRS.map(filesUnder))).flat(), ...DATA_FILES];
    for (const path of wanted) check(await isEmbedded(binary, path), `embedded: ${path}`);
  }
} finally {
  await Deno.remove(out, { recursive: true });
}
console.log(failures === 0 ? "compile check passed" : `compile check: ${failures} failed`);
Deno.exit(failures === 0 ? 0 : 1);
