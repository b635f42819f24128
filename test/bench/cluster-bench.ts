// The cluster part of `npm run bench` (issue 19, "Performance"): POST /v1/payments at concurrency 32
// through HAProxy on `npm run cluster` (two facades, two cores, PostgreSQL with a synchronous
// standby, three NATS servers; test/support/cluster-process.ts) against the single stack
// (startStack: one facade, one core, one PostgreSQL, one NATS), alternating single, cluster,
// single, cluster… in the same run; target: cluster ≥ 0.9× single in requests/s (the median of the
// rounds' ratios). Both shapes share this machine's cores, and the cluster's commits wait for the
// standby: the figure is what the shape costs, not what it would gain on more machines.
//
// Tunables: BENCH_SECONDS (run length, shared with bench.ts), BENCH_CLUSTER_ROUNDS (default 3);
// BENCH_CLUSTER=0 skips it. Alone: `node test/bench/cluster-bench.ts`.
import * as fs from "node:fs";
import { startClusterProcess } from "../support/cluster-process.ts";
import { startStack } from "../support/stack.ts";
import { createRun, median, type CreateRun } from "./create-run.ts";
import { isMain, runAlone, say } from "./run-alone.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const CONCURRENCY = 32;
const TARGET = 0.9;

/** Runs the comparison and returns its report lines (markdown). */
export async function benchCluster(): Promise<string[]> {
  const logLevel = process.env.BENCH_LOG_LEVEL ?? "info";
  const single = await startStack({ logLevel });
  const cluster = await startClusterProcess({ LOG_LEVEL: logLevel }).catch(async (error: unknown) => {
    await single.stop();
    throw error;
  });
  try {
    const keys = { single: (await single.admin.createMerchant({ name: "Bench single" })).testApiKey, cluster: cluster.dev.test_api_key };
    say(`cluster: warm-up (${Math.min(3, SECONDS)} s each)`);
    await createRun(single.baseUrl, keys.single, Math.min(3, SECONDS), CONCURRENCY);
    await createRun(cluster.baseUrl, keys.cluster, Math.min(3, SECONDS), CONCURRENCY);
    const runs: Array<{ single: CreateRun; cluster: CreateRun }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await createRun(single.baseUrl, keys.single, SECONDS, CONCURRENCY);
      const b = await createRun(cluster.baseUrl, keys.cluster, SECONDS, CONCURRENCY);
      runs.push({ single: a, cluster: b });
      say(`cluster round ${round}: single ${a.rps.toFixed(0)} req/s, cluster ${b.rps.toFixed(0)} req/s (${(b.rps / a.rps).toFixed(2)}×)`);
      if (a.bad + b.bad > 0) throw new Error(`cluster bench: ${a.bad} failed requests on the single stack, ${b.bad} through HAProxy`);
    }
    const ratio = median(runs.map((r) => r.cluster.rps / r.single.rps));
    return [
      `#### Cluster shape vs single stack (POST /v1/payments, concurrency ${CONCURRENCY}, ${ROUNDS} alternating rounds of ${SECONDS} s; test/bench/cluster-bench.ts)`,
      "",
      "| Round | single req/s | cluster req/s | ratio | single p99 ms | cluster p99 ms |",
      "|---:|---:|---:|---:|---:|---:|",
      ...runs.map(
        (r, i) =>
          `| ${i + 1} | ${r.single.rps.toFixed(0)} | ${r.cluster.rps.toFixed(0)} | ${(r.cluster.rps / r.single.rps).toFixed(2)}× | ${r.single.p99} | ${r.cluster.p99} |`,
      ),
      "",
      `Cluster / single throughput (median): ${ratio.toFixed(2)}× (target ≥ ${TARGET}×: ${ratio >= TARGET ? "met" : "NOT met"})`,
      "",
    ];
  } finally {
    await cluster.stop().catch(() => undefined);
    await single.stop().catch(() => undefined);
    fs.rmSync(single.logDir, { recursive: true, force: true });
  }
}

// Run alone.
if (isMain(import.meta)) await runAlone(benchCluster);
