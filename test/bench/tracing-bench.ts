// The tracing part of `npm run bench` (issue 19, "Performance"): POST /v1/payments at concurrency 32
// on a stack with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set: every process exports its spans to a
// local OTLP/HTTP JSON collector, test/support/otlp-collector.ts) against an identical stack with
// tracing off, run alternately off, on, off, on… in the same run; target: on ≥ 0.9× off in
// requests/s (the median of the rounds' ratios). The spans the collector received per request are
// reported too, so a "tracing on" run that exported nothing cannot pass for a cheap one. Throughput
// on a shared machine moves with the neighbours' load, so each run also reports the CPU time the
// facade and the core spent per created payment (utime + stime from /proc/<pid>/stat) and the
// 1-minute load average: the CPU ratio is the steadier measure of what tracing costs.
//
// Then off and on side by side (side-by-side.ts: both loaded at once, the same neighbours for both).
//
// Tunables: BENCH_SECONDS (run length, shared with bench.ts), BENCH_TRACING_ROUNDS (default 3),
// BENCH_SIDE_BY_SIDE_ROUNDS (default 3; 0 skips that part);
// BENCH_TRACING=0 skips it; BENCH_NODE_OPTIONS is given to both stacks' processes (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof" to see where tracing's cost goes). Alone: `node test/bench/tracing-bench.ts` (provisions its own
// PostgreSQL + NATS like bench.ts, or uses DATABASE_URL + NATS_URL).
import { createRun, median, stackCpu, stackCreateRun, type StackRun } from "./create-run.ts";
import { isMain, runAlone, say } from "./run-alone.ts";
import { SIDE_BY_SIDE_ROUNDS, sideBySide, sideBySideReport } from "./side-by-side.ts";
import * as fs from "node:fs";
import * as os from "node:os";
import { OtlpCollector } from "../support/otlp-collector.ts";
import { startStack, type Stack } from "../support/stack.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_TRACING_ROUNDS ?? 3);
const CONCURRENCY = 32;
const TARGET = 0.9;

interface MeasuredRun extends StackRun {
  load: number;
}

async function measuredRun(stack: Stack, key: string): Promise<MeasuredRun> {
  return { ...(await stackCreateRun(stack, key, SECONDS, CONCURRENCY)), load: os.loadavg()[0]! };
}

/** Runs the comparison and returns its report lines (markdown). */
export async function benchTracing(): Promise<string[]> {
  // Counting only: the collector shares the machine's cores with the processes measured.
  const collector = await new OtlpCollector({ parse: false }).start();
  const logLevel = process.env.BENCH_LOG_LEVEL ?? "info";
  const nodeOptions: Record<string, string> = process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {};
  const off = await startStack({ logLevel, env: nodeOptions });
  const on = await startStack({
    logLevel,
    env: { ...nodeOptions, OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
  });
  try {
    const keys = {
      off: (await off.admin.createMerchant({ name: "Bench tracing off" })).testApiKey,
      on: (await on.admin.createMerchant({ name: "Bench tracing on" })).testApiKey,
    };
    say(`tracing: warm-up (${Math.min(3, SECONDS)} s each)`);
    await createRun(off.baseUrl, keys.off, Math.min(3, SECONDS), CONCURRENCY);
    await createRun(on.baseUrl, keys.on, Math.min(3, SECONDS), CONCURRENCY);
    const runs: Array<{ off: MeasuredRun; on: MeasuredRun; spansPerRequest: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await measuredRun(off, keys.off);
      const spansBefore = collector.spanCount;
      const b = await measuredRun(on, keys.on);
      // Spans of this run still in the exporters' queues arrive within a schedule delay (1 s).
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const spansPerRequest = (collector.spanCount - spansBefore) / Math.max(1, b.ok);
      runs.push({ off: a, on: b, spansPerRequest });
      say(
        `tracing round ${round}: off ${a.rps.toFixed(0)} req/s, on ${b.rps.toFixed(0)} req/s (${(b.rps / a.rps).toFixed(2)}×), ${spansPerRequest.toFixed(1)} spans per request; ` +
          `CPU ms/request facade ${a.facadeCpuMs.toFixed(3)} → ${b.facadeCpuMs.toFixed(3)}, core ${a.coreCpuMs.toFixed(3)} → ${b.coreCpuMs.toFixed(3)}; load ${b.load.toFixed(2)}`,
      );
      if (a.bad + b.bad > 0) throw new Error(`tracing bench: ${a.bad} failed requests with tracing off, ${b.bad} with it on`);
    }
    const ratio = median(runs.map((r) => r.on.rps / r.off.rps));
    const p99Ratio = median(runs.map((r) => r.on.p99 / r.off.p99));
    const cpuRatio = median(runs.map((r) => stackCpu(r.on) / stackCpu(r.off)));
    const lines = [
      `#### Tracing on vs off (POST /v1/payments, concurrency ${CONCURRENCY}, ${ROUNDS} alternating rounds of ${SECONDS} s; tracing/bench: test/bench/tracing-bench.ts)`,
      "",
      "| Round | off req/s | on req/s | ratio | off p99 ms | on p99 ms | spans exported per request | CPU ms/req facade off → on | CPU ms/req core off → on | CPU on/off (facade + core) | load (1 min) |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...runs.map(
        (r, i) =>
          `| ${i + 1} | ${r.off.rps.toFixed(0)} | ${r.on.rps.toFixed(0)} | ${(r.on.rps / r.off.rps).toFixed(2)}× | ${r.off.p99} | ${r.on.p99} | ${r.spansPerRequest.toFixed(1)} | ` +
          `${r.off.facadeCpuMs.toFixed(3)} → ${r.on.facadeCpuMs.toFixed(3)} | ${r.off.coreCpuMs.toFixed(3)} → ${r.on.coreCpuMs.toFixed(3)} | ${(stackCpu(r.on) / stackCpu(r.off)).toFixed(2)}× | ${r.on.load.toFixed(2)} |`,
      ),
      "",
      `Tracing on / off throughput (median): ${ratio.toFixed(2)}× (target ≥ ${TARGET}×: ${ratio >= TARGET ? "met" : "NOT met"}); p99 ratio ${p99Ratio.toFixed(2)}×; CPU per request on / off (facade + core, median) ${cpuRatio.toFixed(2)}×; export requests refused by the collector: ${collector.refused.length}`,
      "",
    ];
    if (runs.some((r) => r.spansPerRequest < 2)) lines.push("Warning: fewer than 2 spans per request reached the collector: tracing was not fully on.", "");
    if (SIDE_BY_SIDE_ROUNDS > 0) {
      say(`tracing: off and on side by side (${SIDE_BY_SIDE_ROUNDS} rounds)`);
      const side = await sideBySide({ stack: off, apiKey: keys.off }, { stack: on, apiKey: keys.on }, SECONDS, SIDE_BY_SIDE_ROUNDS, CONCURRENCY);
      lines.push(...sideBySideReport(["off", "on"], side, CONCURRENCY, SECONDS));
    }
    return lines;
  } finally {
    await on.stop().catch(() => undefined);
    await off.stop().catch(() => undefined);
    fs.rmSync(on.logDir, { recursive: true, force: true });
    fs.rmSync(off.logDir, { recursive: true, force: true });
    await collector.stop();
  }
}

// Run alone.
if (isMain(import.meta)) await runAlone(benchTracing);
