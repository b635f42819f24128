// The tracing part of `npm run bench` (issue 19, "Performance"): POST /v1/payments at concurrency 32
// on a stack with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set: every process exports its spans to a
// local OTLP/HTTP JSON collector, test/support/otlp-collector.ts) against an identical stack with
// tracing off, run alternately off, on, off, on… in the same run; target: on ≥ 0.9× off in
// requests/s (the median of the rounds' ratios). The spans the collector received per request are
// reported too, so a "tracing on" run that exported nothing cannot pass for a cheap one.
//
// Tunables: BENCH_SECONDS (run length, shared with bench.ts), BENCH_TRACING_ROUNDS (default 3);
// BENCH_TRACING=0 skips it. Alone: `node test/bench/tracing-bench.ts` (provisions its own
// PostgreSQL + NATS like bench.ts, or uses DATABASE_URL + NATS_URL).
import { createRun, median, type CreateRun } from "./create-run.ts";
import { isMain, runAlone, say } from "./run-alone.ts";
import * as fs from "node:fs";
import { OtlpCollector } from "../support/otlp-collector.ts";
import { startStack } from "../support/stack.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_TRACING_ROUNDS ?? 3);
const CONCURRENCY = 32;
const TARGET = 0.9;

/** Runs the comparison and returns its report lines (markdown). */
export async function benchTracing(): Promise<string[]> {
  // Counting only: the collector shares the machine's cores with the processes measured.
  const collector = await new OtlpCollector({ parse: false }).start();
  const logLevel = process.env.BENCH_LOG_LEVEL ?? "info";
  const off = await startStack({ logLevel });
  const on = await startStack({
    logLevel,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
  });
  try {
    const keys = {
      off: (await off.admin.createMerchant({ name: "Bench tracing off" })).testApiKey,
      on: (await on.admin.createMerchant({ name: "Bench tracing on" })).testApiKey,
    };
    say(`tracing: warm-up (${Math.min(3, SECONDS)} s each)`);
    await createRun(off.baseUrl, keys.off, Math.min(3, SECONDS), CONCURRENCY);
    await createRun(on.baseUrl, keys.on, Math.min(3, SECONDS), CONCURRENCY);
    const runs: Array<{ off: CreateRun; on: CreateRun; spansPerRequest: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await createRun(off.baseUrl, keys.off, SECONDS, CONCURRENCY);
      const spansBefore = collector.spanCount;
      const b = await createRun(on.baseUrl, keys.on, SECONDS, CONCURRENCY);
      // Spans of this run still in the exporters' queues arrive within a schedule delay (1 s).
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const spansPerRequest = (collector.spanCount - spansBefore) / Math.max(1, b.ok);
      runs.push({ off: a, on: b, spansPerRequest });
      say(
        `tracing round ${round}: off ${a.rps.toFixed(0)} req/s, on ${b.rps.toFixed(0)} req/s (${(b.rps / a.rps).toFixed(2)}×), ${spansPerRequest.toFixed(1)} spans per request`,
      );
      if (a.bad + b.bad > 0) throw new Error(`tracing bench: ${a.bad} failed requests with tracing off, ${b.bad} with it on`);
    }
    const ratio = median(runs.map((r) => r.on.rps / r.off.rps));
    const p99Ratio = median(runs.map((r) => r.on.p99 / r.off.p99));
    const lines = [
      `#### Tracing on vs off (POST /v1/payments, concurrency ${CONCURRENCY}, ${ROUNDS} alternating rounds of ${SECONDS} s; tracing/bench: test/bench/tracing-bench.ts)`,
      "",
      "| Round | off req/s | on req/s | ratio | off p99 ms | on p99 ms | spans exported per request |",
      "|---:|---:|---:|---:|---:|---:|---:|",
      ...runs.map(
        (r, i) =>
          `| ${i + 1} | ${r.off.rps.toFixed(0)} | ${r.on.rps.toFixed(0)} | ${(r.on.rps / r.off.rps).toFixed(2)}× | ${r.off.p99} | ${r.on.p99} | ${r.spansPerRequest.toFixed(1)} |`,
      ),
      "",
      `Tracing on / off throughput (median): ${ratio.toFixed(2)}× (target ≥ ${TARGET}×: ${ratio >= TARGET ? "met" : "NOT met"}); p99 ratio ${p99Ratio.toFixed(2)}×; export requests refused by the collector: ${collector.refused.length}`,
      "",
    ];
    if (runs.some((r) => r.spansPerRequest < 4)) lines.push("Warning: fewer than 4 spans per request reached the collector: tracing was not fully on.", "");
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
