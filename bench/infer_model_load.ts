/**
 * Model load: the file read into memory (`tolk infer`'s default) against mapped, on the same
 * model — loadModel time, RSS (anonymous and file-backed) after loading and after 16 tokens.
 * Each mode runs in its own process so RSS figures do not mix.
 *
 * `deno run -A bench/infer_model_load.ts MODEL.gguf [ROUNDS]` (figures in BENCHMARKS.md).
 */
import { LlamaChat } from "node-llama-cpp";
import { loadLlama } from "../inference/llama_model.ts";

interface Figures {
  loadMs: number;
  generateMs: number;
  rssMb: number;
  anonMb: number;
  fileMb: number;
  peakMb: number;
}

function memory() {
  const status = Deno.readTextFileSync("/proc/self/status");
  const mb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))![1]) / 1024;
  return { rssMb: mb("VmRSS"), anonMb: mb("RssAnon"), fileMb: mb("RssFile"), peakMb: mb("VmHWM") };
}

async function measure(path: string, mmap: boolean): Promise<Figures> {
  const llama = await loadLlama(false);
  let started = performance.now();
  const model = await llama.loadModel({ modelPath: path, gpuLayers: 0, useMmap: mmap });
  const loadMs = performance.now() - started;
  const context = await model.createContext({ contextSize: 512, threads: 1 });
  const chat = new LlamaChat({ contextSequence: context.getSequence() });
  started = performance.now();
  await chat.generateResponse([{ type: "user", text: "hi" }, { type: "model", response: [] }], {
    maxTokens: 16,
    temperature: 0,
  });
  const figures = { loadMs, generateMs: performance.now() - started, ...memory() };
  chat.dispose();
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  return figures;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (import.meta.main) {
  const [path, mode, roundsArg] = Deno.args;
  if (mode === "--child-read" || mode === "--child-mmap") {
    console.log(JSON.stringify(await measure(path, mode === "--child-mmap")));
  } else {
    const rounds = Number(mode ?? roundsArg ?? 5);
    const runs: Record<string, Figures[]> = { read: [], mmap: [] };
    for (let i = 0; i < rounds; i++) {
      for (const kind of ["read", "mmap"] as const) {
        const output = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", new URL(import.meta.url).pathname, path, `--child-${kind}`],
          stderr: "inherit",
        }).output();
        runs[kind].push(JSON.parse(new TextDecoder().decode(output.stdout)));
      }
    }
    for (const [kind, figures] of Object.entries(runs)) {
      const m = (key: keyof Figures) => median(figures.map((f) => f[key])).toFixed(0);
      console.log(
        `${kind}: loadModel ${m("loadMs")} ms, 16 tokens ${m("generateMs")} ms, RSS ${
          m("rssMb")
        } MB (anon ${m("anonMb")}, file ${m("fileMb")}), peak ${m("peakMb")} MB`,
      );
    }
  }
}
