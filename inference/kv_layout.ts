/**
 * How the slots hold their KV cells: a stream per slot, or one stream all slots share.
 *
 * With a stream per slot a step attends only to its own sequences' cells; in one unified stream
 * every step attends to the highest cell any sequence holds, idle slots' kept prompts included
 * (BENCHMARKS.md: on the CPU 4-stream steps took 4% longer, one-stream steps 10% beside a kept
 * 1,600-token prompt). But llama.cpp clears every stream at creation, so for a moment at load
 * all of them are resident (llama_native.ts gives the zero pages back, on Linux), and after heavy
 * concurrent use they stay so. Hence streams only on the CPU on Linux (a GPU allocates every
 * stream's memory at once) and only while all of them fit {@link KV_STREAMS_BUDGET}; otherwise
 * one context's cells, shared.
 */
import type { LlamaModel } from "node-llama-cpp";

/**
 * The most memory the slots' streams may take in all. A 1.5B model's 8,192-cell context is about
 * 235 MB, four slots fit; an 8B model's 1 GB does not, and its slots share one context's cells
 * rather than hold up to 4 GB more.
 */
export const KV_STREAMS_BUDGET = 1024 * 1024 * 1024;

/** Whether each slot gets a KV stream of its own. */
export function kvStreamsPerSlot(options: {
  backend: string;
  slots: number;
  /** One slot's stream (one generation's context), in bytes. */
  bytesPerSlot: number;
  budget: number;
}): boolean {
  return options.backend === "cpu" && Deno.build.os === "linux" &&
    options.slots * options.bytesPerSlot <= options.budget;
}

/** The KV cache of one sequence of `cells` cells on the CPU, as node-llama-cpp estimates it. */
export function kvBytes(model: LlamaModel, cells: number): number {
  return model.fileInsights.estimateContextResourceRequirements({
    contextSize: cells,
    modelGpuLayers: 0,
    sequences: 1,
    flashAttention: true,
    includeGraphOverhead: false,
  }).cpuRam;
}
