/**
 * The anchor bench's rounds (bench/infer_anchor_bench.ts): both servers measured in turn, each
 * once both are quiet, and a round that other processes disturbed run again.
 */
import type { Target } from "./anchor_servers.ts";
import { cpuSeconds, machineBusySeconds } from "./process_cpu.ts";

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Waits until neither server uses the CPU (at most 5 s): llama-server's pool workers keep spinning
 * for about half a second after its last request (ggml's `poll` level 50), which took a core from
 * whichever server was measured next.
 */
async function quiet(targets: readonly Target[]): Promise<void> {
  const deadline = Date.now() + 5000;
  let last = await Promise.all(targets.map((target) => cpuSeconds(target.pid)));
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await Promise.all(targets.map((target) => cpuSeconds(target.pid)));
    if (now.every((seconds, i) => seconds === last[i])) return;
    last = now;
  }
}

/** CPU seconds used by others than `target` and this bench (the idle server counts as other). */
async function othersSeconds(target: Target): Promise<number> {
  const ours = (await cpuSeconds(target.pid)) + (await cpuSeconds(Deno.pid));
  return (await machineBusySeconds()) - ours;
}

/**
 * Share of one core that other processes may use during a measurement before its round is run
 * again. On this shared 2-core machine, helpers' short unlocked jobs (a focused test, `deno
 * check`) took 40–100% of a core in about a third of the rounds: a server measured then lost a
 * core (llama-server's two threads fell to 8–54 tok/s at their spin barriers, tolk's fell back to
 * one thread), and with 5 rounds the median ratio swung between 66% and 97% on the same two
 * servers within a minute. Quiet measurements read -4% to +4% here (tick rounding).
 */
export const OTHERS_LIMIT = 0.1;
let redone = 0;

/** Rounds run again so far. */
export function roundsRedone(): number {
  return redone;
}

/**
 * Runs `measure` on both targets each round, alternating who goes first. A round in which other
 * processes used more than {@link OTHERS_LIMIT} of a core during either measurement is run again
 * (at most `rounds` extra times per measure, after which disturbed rounds count as they are).
 */
export async function paired(
  targets: [Target, Target],
  measure: (target: Target) => Promise<number>,
  rounds: number,
): Promise<Rounds> {
  const values: Record<string, number[]> = { tolk: [], "llama-server": [] };
  const ratios: number[] = [];
  let retries = rounds;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...targets].reverse() : targets;
    const pair: Record<string, number> = {};
    let disturbed = false;
    for (const target of order) {
      await quiet(targets);
      const [others, start] = [await othersSeconds(target), performance.now()];
      pair[target.name] = await measure(target);
      const seconds = (performance.now() - start) / 1000;
      disturbed ||= ((await othersSeconds(target)) - others) / seconds > OTHERS_LIMIT;
    }
    if (disturbed && retries-- > 0) {
      redone++;
      round--;
      continue;
    }
    values.tolk.push(pair.tolk);
    values["llama-server"].push(pair["llama-server"]);
    ratios.push(pair.tolk / pair["llama-server"]);
  }
  return { tolk: values.tolk, llama: values["llama-server"], ratios };
}

/** Each round's figure for both servers, and their ratio. */
export interface Rounds {
  tolk: number[];
  llama: number[];
  ratios: number[];
}
