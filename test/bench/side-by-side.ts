// Two stacks loaded at the same time, each by its own load generator: a second view of an A/B
// comparison beside the alternating runs (tracing-bench.ts, request-logs-bench.ts). Alternating
// runs give each stack the whole machine in turn, so on a shared machine a neighbour's burst lands
// on one side only and a round's ratio swings by ±15 %; side by side, both stacks meet the same
// neighbours in the same seconds. They then share the two CPUs between them, so each answers about
// half as fast and CPU per request is inflated for both (more context switches): the ratios are the
// figures to read, not the absolute values. The targets stay judged on the alternating runs.
import { median, stackCpu, stackCreateRun, type StackRun } from "./create-run.ts";
import type { Stack } from "../support/stack.ts";

/** BENCH_SIDE_BY_SIDE_ROUNDS: rounds of the side-by-side part of the benches that have one (0: none). */
export const SIDE_BY_SIDE_ROUNDS = Number(process.env.BENCH_SIDE_BY_SIDE_ROUNDS ?? 3);

export interface Side {
  stack: Stack;
  apiKey: string;
}

/** `rounds` runs of POST /v1/payments on both stacks at once (`connections` each); [a, b] per round. */
export async function sideBySide(a: Side, b: Side, seconds: number, rounds: number, connections: number): Promise<Array<[StackRun, StackRun]>> {
  const runs: Array<[StackRun, StackRun]> = [];
  for (let round = 0; round < rounds; round++) {
    const pair = await Promise.all([stackCreateRun(a.stack, a.apiKey, seconds, connections), stackCreateRun(b.stack, b.apiKey, seconds, connections)]);
    if (pair[0].bad + pair[1].bad > 0) throw new Error(`side by side: ${pair[0].bad} and ${pair[1].bad} failed requests`);
    runs.push(pair);
  }
  return runs;
}

/** The report: a table of the rounds and the medians of b / a. */
export function sideBySideReport(labels: [string, string], runs: Array<[StackRun, StackRun]>, connections: number, seconds: number, caveat?: string): string[] {
  const [la, lb] = labels;
  const rps = median(runs.map(([a, b]) => b.rps / a.rps));
  const cpu = median(runs.map(([a, b]) => stackCpu(b) / stackCpu(a)));
  return [
    `Side by side (both stacks loaded at once, ${connections} connections each, ${runs.length} rounds of ${seconds} s; test/bench/side-by-side.ts):`,
    "",
    `| Round | ${la} req/s | ${lb} req/s | ${lb} / ${la} | ${la} CPU ms/req (facade + core) | ${lb} CPU ms/req | CPU ${lb} / ${la} |`,
    "|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map(
      ([a, b], i) =>
        `| ${i + 1} | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${(b.rps / a.rps).toFixed(2)}× | ${stackCpu(a).toFixed(3)} | ${stackCpu(b).toFixed(3)} | ${(stackCpu(b) / stackCpu(a)).toFixed(2)}× |`,
    ),
    "",
    `Side by side, ${lb} / ${la} (medians): throughput ${rps.toFixed(2)}×, CPU per request ${cpu.toFixed(2)}×.${caveat ? ` ${caveat}` : ""}`,
    "",
  ];
}
