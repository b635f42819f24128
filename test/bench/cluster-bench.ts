// The cluster part of `npm run bench` (issue 19, "Performance"): POST /v1/payments at concurrency 32
// through HAProxy on `npm run cluster` (two facades, two cores, PostgreSQL with a synchronous
// standby, three NATS servers; test/support/cluster-process.ts) against the single stack
// (startStack: one facade, one core, one PostgreSQL, one NATS), alternating single, cluster,
// single, cluster… in the same run; target: cluster ≥ 0.9× single in requests/s (the median of the
// rounds' ratios). Both shapes share this machine's cores, and the cluster's commits wait for the
// standby: the figure is what the shape costs, not what it would gain on more machines.
//
// Tunables: BENCH_SECONDS (run length, shared with bench.ts), BENCH_CLUSTER_ROUNDS (default 3),
// BENCH_CLUSTER_WARMUP (seconds of warm-up of the single stack, default 5; the cluster gets twice that);
// BENCH_CLUSTER=0 skips it. Alone: `node test/bench/cluster-bench.ts`.
import * as fs from "node:fs";
import * as os from "node:os";
import { newDatabaseClient } from "../../core/src/db/primary.ts";
import { startClusterProcess } from "../support/cluster-process.ts";
import { startStack } from "../support/stack.ts";
import { createRun, median, type CreateRun } from "./create-run.ts";
import { commandLine, parentPid } from "./process-cpu.ts";
import { loadAverage, snapshot, spent, type Shape } from "./process-roles.ts";
import { isMain, runAlone, say } from "./run-alone.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_CLUSTER_WARMUP ?? 5);
const CONCURRENCY = 32;
/** Facades (and cores) in `npm run cluster`. */
const INSTANCES = 2;
const TARGET = 0.9;

/**
 * The command line of the postmaster serving `url` (a backend's parent), to tell its processes from
 * the cluster's; undefined when that server is not on this machine (its CPU is then not counted).
 */
async function postmasterOf(url: string): Promise<string | undefined> {
  const client = newDatabaseClient(url, 5_000);
  await client.connect();
  try {
    const backend = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const postmaster = parentPid(backend);
    return postmaster === undefined ? undefined : commandLine(postmaster);
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

interface Measured {
  run: CreateRun;
  /** CPU ms per "shape/role" during the run. */
  cpu: Map<string, number>;
  load: number;
}

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
    const markers: Record<string, Shape> = { [cluster.home]: "cluster", "devstack/cluster.ts": "cluster" };
    const singlePostmaster = await postmasterOf(process.env.DATABASE_URL!);
    if (singlePostmaster) markers[singlePostmaster] = "single";
    else say("cluster: the single stack's PostgreSQL is not on this machine; its CPU is not counted");
    const measure = async (baseUrl: string, key: string): Promise<Measured> => {
      const before = snapshot(markers);
      const run = await createRun(baseUrl, key, SECONDS, CONCURRENCY);
      return { run, cpu: spent(before, snapshot(markers)), load: loadAverage() };
    };
    // The same warm-up per process: each of the cluster's facades and cores sees half of its load, so
    // it gets twice the time to reach what the single stack's reach in WARMUP seconds (V8 compiles
    // hot code per process; measured before this, the cluster's facades and cores spent a third more
    // CPU per request in the first rounds than in the later ones).
    say(`cluster: warm-up (single ${WARMUP} s, cluster ${WARMUP * INSTANCES} s)`);
    await createRun(single.baseUrl, keys.single, WARMUP, CONCURRENCY);
    await createRun(cluster.baseUrl, keys.cluster, WARMUP * INSTANCES, CONCURRENCY);
    const runs: Array<{ single: CreateRun; cluster: CreateRun }> = [];
    const measured: Array<{ single: Measured; cluster: Measured }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const ma = await measure(single.baseUrl, keys.single);
      const mb = await measure(cluster.baseUrl, keys.cluster);
      const [a, b] = [ma.run, mb.run];
      runs.push({ single: a, cluster: b });
      measured.push({ single: ma, cluster: mb });
      say(`cluster round ${round}: single ${a.rps.toFixed(0)} req/s, cluster ${b.rps.toFixed(0)} req/s (${(b.rps / a.rps).toFixed(2)}×)`);
      if (a.bad + b.bad > 0) throw new Error(`cluster bench: ${a.bad} failed requests on the single stack, ${b.bad} through HAProxy`);
    }
    const ratio = median(runs.map((r) => r.cluster.rps / r.single.rps));
    return [
      `#### Cluster shape vs single stack (POST /v1/payments, concurrency ${CONCURRENCY}, ${ROUNDS} alternating rounds of ${SECONDS} s; test/bench/cluster-bench.ts)`,
      "",
      "| Round | single req/s | cluster req/s | ratio | single p99 ms | cluster p99 ms | load (1 min) after single / cluster |",
      "|---:|---:|---:|---:|---:|---:|---:|",
      ...runs.map(
        (r, i) =>
          `| ${i + 1} | ${r.single.rps.toFixed(0)} | ${r.cluster.rps.toFixed(0)} | ${(r.cluster.rps / r.single.rps).toFixed(2)}× | ${r.single.p99} | ${r.cluster.p99} | ${measured[i]!.single.load.toFixed(1)} / ${measured[i]!.cluster.load.toFixed(1)} |`,
      ),
      "",
      `Cluster / single throughput (median): ${ratio.toFixed(2)}× (target ≥ ${TARGET}×: ${ratio >= TARGET ? "met" : "NOT met"}). ${os.cpus().length} CPUs.`,
      "",
      ...cpuTable(measured),
    ];
  } finally {
    await cluster.stop().catch(() => undefined);
    await single.stop().catch(() => undefined);
    fs.rmSync(single.logDir, { recursive: true, force: true });
  }
}

/**
 * CPU ms per request of each process role in the loaded shape (summed over the rounds), and the
 * CPU ms per second the idle shape's processes burn meanwhile (which the loaded one loses).
 */
function cpuTable(measured: Array<{ single: Measured; cluster: Measured }>): string[] {
  const sum = (shape: "single" | "cluster") => {
    const out = new Map<string, number>();
    let requests = 0;
    let seconds = 0;
    for (const m of measured.map((x) => x[shape])) {
      requests += m.run.ok + m.run.bad;
      seconds += SECONDS;
      for (const [key, ms] of m.cpu) out.set(key, (out.get(key) ?? 0) + ms);
    }
    return { out, requests, seconds };
  };
  const s = sum("single");
  const c = sum("cluster");
  const roles = new Set<string>();
  for (const key of [...s.out.keys(), ...c.out.keys()]) roles.add(key.slice(key.indexOf("/") + 1));
  const perReq = (m: Map<string, number>, shape: string, role: string, n: number) => ((m.get(`${shape}/${role}`) ?? 0) / n).toFixed(3);
  const idle = (m: Map<string, number>, shape: string, role: string, secs: number) => ((m.get(`${shape}/${role}`) ?? 0) / secs).toFixed(0);
  const rows = [...roles]
    .sort()
    .filter((role) => ["single", "cluster", "bench"].some((shape) => (s.out.get(`${shape}/${role}`) ?? 0) + (c.out.get(`${shape}/${role}`) ?? 0) > 0));
  const total = (m: Map<string, number>, shape: string) => [...m].filter(([k]) => k.startsWith(`${shape}/`)).reduce((a, [, v]) => a + v, 0);
  return [
    "CPU per process role (utime + stime from /proc/<pid>/stat, summed over the rounds): ms per request while that shape is loaded, and ms per second the other shape burns idle meanwhile.",
    "",
    "| Role | single ms/req | cluster ms/req | cluster idle ms/s (single loaded) | single idle ms/s (cluster loaded) |",
    "|---|---:|---:|---:|---:|",
    ...rows.map(
      (role) =>
        `| ${role} | ${perReq(s.out, role === "bench (autocannon)" ? "bench" : "single", role, s.requests)} | ${perReq(c.out, role === "bench (autocannon)" ? "bench" : "cluster", role, c.requests)} | ${idle(s.out, "cluster", role, s.seconds)} | ${idle(c.out, "single", role, c.seconds)} |`,
    ),
    `| **total (without the load generator)** | ${(total(s.out, "single") / s.requests).toFixed(3)} | ${(total(c.out, "cluster") / c.requests).toFixed(3)} | ${(total(s.out, "cluster") / s.seconds).toFixed(0)} | ${(total(c.out, "single") / c.seconds).toFixed(0)} |`,
    "",
  ];
}

// Run alone.
if (isMain(import.meta)) await runAlone(benchCluster);
