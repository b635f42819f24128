// `npm run bench`: starts PostgreSQL + NATS (unless DATABASE_URL / NATS_URL are set), a
// core and a facade on loopback, and measures
//   1. POST /v1/payments at concurrency 1, 8, 32 and 128 (autocannon, a fresh Idempotency-Key
//      per request) against a one-hop baseline (baseline-server.ts: node:http + pg
//      running the creation statement on the same database), alternately baseline,
//      product, baseline, product…: requests/s, p50, p99 (to the microsecond at concurrency ≤
//      BENCH_PRECISE_UP_TO, default 8: a node:http closed loop; above it autocannon's whole ms),
//      their ratios product / baseline
//      (the machine's speed and load cancel out of those), and CPU time per payment
//      of each process;
//   2. GET /v1/payments?limit=25 for a merchant with 10 000 and with 1 000 000 payments
//      (rows inserted with SQL): p50/p99 at concurrency 1 (sub-millisecond timer) and
//      requests/s + p50/p99 at concurrency 8 (autocannon);
//   3. peak RSS of the facade and core processes (VmRSS sampled every 200 ms, and VmHWM);
//   4. payment-link pay against POST /v1/payments (link-pay.ts);
//   4b. refund creation against POST /v1/payments (refund-create.ts);
//   5. the payment page's first byte against GET /v1/payments/{id}, and the card submit through it
//      (payment-page.ts; BENCH_PAGE_SECONDS, BENCH_PAGE_PAIRS, BENCH_PAGE_SUBMITS);
//   6. the dashboard's payments list (status + date range) against GET /v1/payments on the same
//      merchant, and the CSV export of 100 000 payments (dashboard-reads.ts; BENCH_DASHBOARD=0 skips it).
// Prints markdown tables and the command that produced them.
//
// Tunables (environment): BENCH_SECONDS (default 10) per POST run, BENCH_PAIRS (default 3)
// baseline/product pairs at concurrency 32, BENCH_CONCURRENCIES (default "1,8,128": one pair each, BENCH_PAIRS_C1 (default 3) at 1), BENCH_LIST_SECONDS (default 8) per list run,
// BENCH_LIST_SIZES (default "10000,1000000"), BENCH_LOG_LEVEL (default "info", what the
// processes log at), BENCH_OUT (also write the report there). Profiling: BENCH_PROBE=1,
// BENCH_PROBE_V8_FLAGS (e.g. "--trace-gc", set by probe.ts), BENCH_NODE_OPTIONS,
// BENCH_KEEP_LOGS=1 (keep the processes' logs), BENCH_CREATE_ONLY=1 (creation against the baseline only). Then `ledger verify` over 1 000 000 ledger lines against
// one sequential scan of them (ledger-verify.ts; BENCH_LEDGER=0 skips it, BENCH_LEDGER_LINES, BENCH_LEDGER_REPS),
// the webhook delivery bench (webhook-bench.ts; BENCH_WEBHOOKS=0 skips it), and creation with tracing
// on against off (tracing-bench.ts; BENCH_TRACING=0 skips it, BENCH_TRACING_ROUNDS), creation with
// request logs on against off and against NATS unreachable (request-logs-bench.ts; BENCH_REQUEST_LOGS=0
// skips it, BENCH_REQUEST_LOG_ROUNDS), and the cluster shape through HAProxy against the single stack
// (cluster-bench.ts; BENCH_CLUSTER=0 skips it, BENCH_CLUSTER_ROUNDS).

import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import autocannon from "autocannon";
import { buildServices } from "../../core/src/devstack/services.ts";
import { launchCommand, startStack, type Stack } from "../support/stack.ts";
import { benchCheckoutLifecycle } from "./checkout-lifecycle.ts";
import { benchCluster } from "./cluster-bench.ts";
import { coreBatches } from "./core-batches.ts";
import { benchDashboardReads } from "./dashboard-reads.ts";
import { benchLedgerVerify } from "./ledger-verify.ts";
import { benchLinkPay, LINK_BENCH_ENV } from "./link-pay.ts";
import { insertPayments } from "./payment-fill.ts";
import { benchPaymentPage } from "./payment-page.ts";
import { cpuOf, cpuSpent, memoryKb, selfCpuMs, threadCpuMs } from "./process-cpu.ts";
import { benchRefundCreate } from "./refund-create.ts";
import { webhookBench } from "./webhook-bench.ts";
import { benchTracing } from "./tracing-bench.ts";
import { benchRequestLogs } from "./request-logs-bench.ts";
import { keepAliveAgent } from "../support/keep-alive-agent.ts";

const POST_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LIST_SECONDS = Number(process.env.BENCH_LIST_SECONDS ?? 8);
const WARMUP_SECONDS = Math.min(3, POST_SECONDS);
const LIST_SIZES = (process.env.BENCH_LIST_SIZES ?? "10000,1000000").split(",").map((s) => Number(s.trim()));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "info";
/** BENCH_CREATE_ONLY=1: POST /v1/payments against the baseline only (no link pay, refunds, pages, lists, dashboard, checkout). */
const CREATE_ONLY = process.env.BENCH_CREATE_ONLY === "1";
/** Baseline/product pairs at concurrency 32; the ratios reported are their medians. */
const PAIRS_C32 = Number(process.env.BENCH_PAIRS ?? 3);
/** Baseline/product pairs at concurrency 1 (BENCH_PAIRS_C1, default 3): a lone request's p50 moves with the machine from one run to the next, so its ratio is a median too. */
const PAIRS_C1 = Number(process.env.BENCH_PAIRS_C1 ?? 3);
/** BENCH_CONCURRENCIES: the concurrencies measured with one baseline/product pair each (1: PAIRS_C1), besides the pairs at 32 (in that order around them). */
const SINGLE_PAIR_CONCURRENCIES = (process.env.BENCH_CONCURRENCIES ?? "1,8,128")
  .split(",")
  .filter((c) => c.trim() !== "")
  .map((c) => Number(c.trim()))
  .filter((c) => c !== 32);
/** BENCH_PRECISE_UP_TO (default 8): POST runs at up to this concurrency are timed to the microsecond (preciseLoop), the rest with autocannon. */
const PRECISE_UP_TO = Number(process.env.BENCH_PRECISE_UP_TO ?? 8);
/** BENCH_PROBE=1: load probe.ts into facade, core and baseline (GC, event-loop delay) and report it per run. */
const PROBE_DIR = process.env.BENCH_PROBE === "1" ? fs.mkdtempSync(path.join(os.tmpdir(), "paytami-probe-")) : undefined;
/** NODE_OPTIONS for facade, core and baseline, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (profiling only). */
const CHILD_NODE_OPTIONS = [process.env.BENCH_NODE_OPTIONS ?? "", PROBE_DIR ? `--import=${path.join(import.meta.dirname, "probe.ts")}` : ""].join(" ").trim();
const CHILD_ENV: Record<string, string> = {
  ...(CHILD_NODE_OPTIONS ? { NODE_OPTIONS: CHILD_NODE_OPTIONS } : {}),
  ...(PROBE_DIR ? { BENCH_PROBE_DIR: PROBE_DIR } : {}),
  ...(process.env.BENCH_PROBE_V8_FLAGS ? { BENCH_PROBE_V8_FLAGS: process.env.BENCH_PROBE_V8_FLAGS } : {}),
  // The list data is inserted with old capture times; the core's sandbox settlement must not move it
  // under the list runs (settlement is measured on its own, checkout-lifecycle.ts).
  SETTLEMENT_DELAYS: "3650d,3650d,3650d",
};

function say(msg: string): void {
  process.stderr.write(`bench  | ${msg}\n`);
}

// ---------------------------------------------------------------------------
// infrastructure

interface Infra {
  databaseUrl: string;
  natsUrl: string;
  stop(): Promise<void>;
}

async function provision(): Promise<Infra> {
  if (process.env.DATABASE_URL && process.env.NATS_URL) {
    say("using DATABASE_URL and NATS_URL from the environment");
    return { databaseUrl: process.env.DATABASE_URL, natsUrl: process.env.NATS_URL, stop: async () => undefined };
  }
  const { provisionInfra } = await import("../../core/src/devstack/infra.ts");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-bench-"));
  // The cluster may run as an unprivileged user (when we are root), which must traverse the home.
  fs.chmodSync(home, 0o755);
  const removeHome = () => {
    const pgDir = path.join(home, "postgres");
    try {
      if (fs.lstatSync(pgDir).isSymbolicLink()) fs.rmSync(fs.realpathSync(pgDir), { recursive: true, force: true });
    } catch {
      /* nothing there */
    }
    fs.rmSync(home, { recursive: true, force: true });
  };
  try {
    const infra = await provisionInfra(home);
    return {
      databaseUrl: infra.databaseUrl,
      natsUrl: infra.natsUrl,
      stop: async () => {
        await infra.stop();
        removeHome();
      },
    };
  } catch (e) {
    removeHome();
    throw e;
  }
}

// ---------------------------------------------------------------------------
// memory sampling

interface MemPeak {
  rssMaxKb: number;
  hwmKb: number;
}

class MemSampler {
  private timer: NodeJS.Timeout | undefined;
  readonly overall: Record<string, MemPeak> = {};
  /** The anonymous part of each process's RSS when its RSS peaked. */
  readonly anonAtPeak: Record<string, number> = {};
  phase: Record<string, number> = {};
  private stack: Stack;
  constructor(stack: Stack) {
    this.stack = stack;
  }
  start(): void {
    this.timer = setInterval(() => this.sample(), 200);
    this.timer.unref();
  }
  sample(): void {
    for (const [name, pid] of Object.entries(this.stack.pids())) {
      if (pid === undefined) continue;
      const s = memoryKb(pid);
      if (!s) continue;
      const o = (this.overall[name] ??= { rssMaxKb: 0, hwmKb: 0 });
      if (s.rss > o.rssMaxKb) this.anonAtPeak[name] = s.anon;
      o.rssMaxKb = Math.max(o.rssMaxKb, s.rss);
      o.hwmKb = Math.max(o.hwmKb, s.hwm);
      this.phase[name] = Math.max(this.phase[name] ?? 0, s.rss);
    }
  }
  /** Peak RSS per process since the last call. */
  takePhase(): Record<string, number> {
    this.sample();
    const p = this.phase;
    this.phase = {};
    return p;
  }
  stop(): void {
    this.sample();
    if (this.timer) clearInterval(this.timer);
  }
}

const mb = (kb: number | undefined) => (kb === undefined ? "–" : `${(kb / 1024).toFixed(0)} MB`);

// ---------------------------------------------------------------------------
// the baseline process (test/bench/baseline-server.ts)

type Target = "product" | "baseline";

interface Baseline {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = "/" + name;
  return u.toString();
}

async function startBaseline(databaseUrl: string, publicBaseUrl: string): Promise<Baseline> {
  const child: ChildProcess = spawn(process.execPath, [path.join(import.meta.dirname, "baseline-server.ts")], {
    env: { PATH: process.env.PATH ?? "", DATABASE_URL: databaseUrl, PUBLIC_BASE_URL: publicBaseUrl, ...CHILD_ENV },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    // Anything else it prints (e.g. --trace-gc lines) is passed through to stderr.
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split("\n");
      out = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('{"port":')) resolve((JSON.parse(line) as { port: number }).port);
        else if (process.env.BENCH_KEEP_LOGS === "1") process.stderr.write(`baseline | ${line}\n`);
      }
    });
    child.once("exit", (code) => reject(new Error(`baseline exited during startup (code ${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------
// load

interface RunResult {
  label: string;
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  ok2xx: number;
  errors: number;
  tool: string;
}

interface PostRun extends RunResult {
  target: Target;
  /** CPU milliseconds per created payment, per process group (PostgreSQL: this database's backends). */
  cpuMsPerRequest: Record<string, number>;
  /** Of that, the main thread's (the event loop's) of each Node process: facade, core or baseline. */
  mainThreadMsPerRequest: Record<string, number>;
  /** What probe.ts saw in each Node process during the run (BENCH_PROBE=1). */
  probes: Record<string, ProbeRecord>;
  /** The product's creation statements during the run, by how many requests each carried (group commit). */
  batches: Map<number, number>;
}

/** The batch-size distribution of a run: statements, requests per statement, and where the requests went. */
function batchLine(c: number, runs: Map<number, number>[]): string {
  const total = new Map<number, number>();
  for (const run of runs) for (const [size, n] of run) total.set(size, (total.get(size) ?? 0) + n);
  const statements = [...total.values()].reduce((a, b) => a + b, 0);
  const requests = [...total].reduce((a, [size, n]) => a + size * n, 0);
  const share = (lo: number, hi: number) =>
    requests === 0
      ? "–"
      : `${((100 * [...total].filter(([size]) => size >= lo && size <= hi).reduce((a, [size, n]) => a + size * n, 0)) / requests).toFixed(0)} %`;
  const largest = Math.max(0, ...total.keys());
  return `| ${c} | ${statements} | ${statements === 0 ? "–" : (requests / statements).toFixed(1)} | ${largest} | ${share(1, 1)} | ${share(2, 7)} | ${share(8, 31)} | ${share(32, Infinity)} |`;
}

interface ProbeRecord {
  seconds: number;
  cpuMs: number;
  eventLoopUtilization: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  gc: Record<string, { count: number; ms: number; maxMs: number }>;
  heapUsedMb: number;
  /** process.memoryUsage() and V8's heap spaces (committed), MB, at the end of the run. */
  memoryMb?: Record<string, number>;
}

async function cannon(opts: {
  label: string;
  url: string;
  concurrency: number;
  seconds: number;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  uniqueIdem?: boolean;
}): Promise<RunResult> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.concurrency,
    duration: opts.seconds,
    method: opts.method,
    headers: opts.headers,
    ...(opts.body !== undefined ? { body: opts.body } : {}),
    ...(opts.uniqueIdem
      ? {
          requests: [
            {
              setupRequest: (req: any) => {
                req.headers = { ...req.headers, "idempotency-key": randomUUID() };
                return req;
              },
            },
          ],
        }
      : {}),
  });
  return {
    label: opts.label,
    concurrency: opts.concurrency,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    ok2xx: result["2xx"],
    errors: result.errors + result.timeouts,
    tool: "autocannon",
  };
}

const agent = keepAliveAgent(64);
function timedGet(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** A latency as measured: autocannon's are whole milliseconds, the node:http loops' are to the microsecond. */
const fmt = (v: number, tool: string) => (tool === "autocannon" ? `${v}` : v.toFixed(2));

/** The median of one side's p50 or p99 over pairs of runs at one concurrency, printed as its tool times it. */
function medianMs(pairs: { base: PostRun; prod: PostRun }[], side: "base" | "prod", at: "p50" | "p99"): string {
  return fmt(median(pairs.map((p) => p[side][at])), pairs[0]![side].tool);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function timedPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", headers: { ...headers, "idempotency-key": randomUUID(), "content-length": Buffer.byteLength(body) }, agent },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A closed loop of `request` (timedPost: a fresh Idempotency-Key per request; timedGet) on keep-alive
 * connections, timed with performance.now(): autocannon's histogram holds whole milliseconds, too
 * coarse for c=1 and c=8, where the baseline answers in well under one.
 */
async function preciseLoop(label: string, concurrency: number, seconds: number, request: () => Promise<{ status: number; ms: number }>): Promise<RunResult> {
  const lat: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      try {
        const r = await request();
        if (r.status >= 200 && r.status < 300) lat.push(r.ms);
        else non2xx++;
      } catch {
        errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return {
    label,
    concurrency,
    rps: (lat.length + non2xx) / elapsed,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    total: lat.length + non2xx + errors,
    non2xx,
    ok2xx: lat.length,
    errors,
    tool: "node:http loop",
  };
}

// ---------------------------------------------------------------------------
// data

async function paymentsOf(stack: Stack, merchantId: string): Promise<number> {
  const r = await stack.sql<{ n: string }>("SELECT count(*)::text AS n FROM payments WHERE merchant_id = $1", [merchantId]);
  return Number(r[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------

async function main(): Promise<void> {
  const t0 = Date.now();
  if (process.env.PAYTAMI_TEST_SKIP_BUILD !== "1") {
    say("building dist/");
    buildServices();
  }
  const infra = await provision();
  process.env.DATABASE_URL = infra.databaseUrl;
  process.env.NATS_URL = infra.natsUrl;
  let stack: Stack | undefined;
  let sampler: MemSampler | undefined;
  let baseline: Baseline | undefined;
  try {
    say(`starting core and facade (LOG_LEVEL=${LOG_LEVEL})`);
    stack = await startStack({ logLevel: LOG_LEVEL, env: { ...CHILD_ENV, ...LINK_BENCH_ENV } });
    sampler = new MemSampler(stack);
    sampler.start();
    const s = stack;
    const idle = sampler.takePhase();

    const writer = await s.admin.createMerchant({ name: "Bench Writer" });
    const reader = await s.admin.createMerchant({ name: "Bench Reader" });
    const postHeaders = { authorization: `Bearer ${writer.testApiKey}`, "content-type": "application/json" };
    const body = JSON.stringify({
      amount: "12345",
      currency: "GTQ",
      method_type: "card",
      success_url: "https://shop.example.com/thanks",
      cancel_url: "https://shop.example.com/cart",
      description: "Pedido de prueba",
      customer: { email: "ana@example.com", name: "Ana López" },
    });

    const runs: RunResult[] = [];
    const phasePeaks: Array<{ label: string; peaks: Record<string, number> }> = [];

    // The yardstick: its own process and merchant, the same database, body and load tool.
    const database = (await s.sql<{ name: string }>("select current_database() as name"))[0]!.name;
    const databaseUrl = withDatabase(infra.databaseUrl, database);
    baseline = await startBaseline(databaseUrl, s.publicBaseUrl);
    const baselineMerchant = await s.admin.createMerchant({ name: "Bench Baseline" });
    const targets: Record<Target, { url: string; headers: Record<string, string> }> = {
      product: { url: `${s.baseUrl}/v1/payments`, headers: postHeaders },
      baseline: { url: `${baseline.url}/v1/payments`, headers: { ...postHeaders, authorization: `Bearer ${baselineMerchant.testApiKey}` } },
    };
    const cpuPids = async (target: Target): Promise<Record<string, number[]>> => {
      const backends = (await s.sql<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()")).map(
        (r) => r.pid,
      );
      const own: Record<string, number[]> = target === "product" ? { facade: [s.pids().facade!], core: [s.pids().core!] } : { baseline: [baseline!.pid] };
      return { ...own, postgres: backends };
    };
    const post = async (target: Target, concurrency: number, seconds: number): Promise<PostRun> => {
      const before = await cpuPids(target);
      const startCpu = cpuOf(before);
      const startSelf = selfCpuMs();
      const batchesBefore = target === "product" ? await coreBatches(s, "create") : new Map<number, number>();
      const probed = Object.entries(before)
        .filter(([name]) => name !== "postgres")
        .map(([name, pids]) => [name, pids[0]!] as const);
      // Node names its main thread "MainThread"; the rest are V8's GC helpers, libuv's pool and our worker threads.
      const mainThreads = () => Object.fromEntries(probed.map(([name, pid]) => [name, threadCpuMs(pid, "MainThread")]));
      const mainBefore = mainThreads();
      if (PROBE_DIR) for (const [, pid] of probed) process.kill(pid, "SIGUSR2");
      const label = `POST /v1/payments (${target})`;
      const r =
        concurrency <= PRECISE_UP_TO
          ? await preciseLoop(label, concurrency, seconds, () => timedPost(targets[target].url, targets[target].headers, body))
          : await cannon({ label, url: targets[target].url, concurrency, seconds, method: "POST", headers: targets[target].headers, body, uniqueIdem: true });
      const after = await cpuPids(target);
      const mainAfter = mainThreads();
      const batches = new Map<number, number>();
      if (target === "product")
        for (const [size, n] of await coreBatches(s, "create")) if (n > (batchesBefore.get(size) ?? 0)) batches.set(size, n - (batchesBefore.get(size) ?? 0));
      const perPayment = (spentMs: Record<string, number>) =>
        Object.fromEntries(Object.entries(spentMs).map(([name, ms]) => [name, r.ok2xx > 0 ? ms / r.ok2xx : NaN]));
      const cpuMsPerRequest = perPayment({ ...cpuSpent(startCpu, cpuOf(after)), "load generator": selfCpuMs() - startSelf });
      const mainThreadMsPerRequest = perPayment(Object.fromEntries(Object.entries(mainAfter).map(([name, ms]) => [name, ms - (mainBefore[name] ?? 0)])));
      const probes: Record<string, ProbeRecord> = {};
      if (PROBE_DIR) {
        for (const [, pid] of probed) process.kill(pid, "SIGUSR2");
        await new Promise((resolve) => setTimeout(resolve, 200));
        for (const [name, pid] of probed) {
          const lines = fs
            .readFileSync(path.join(PROBE_DIR, `${pid}.jsonl`), "utf8")
            .trim()
            .split("\n");
          probes[name] = JSON.parse(lines[lines.length - 1]!) as ProbeRecord;
        }
      }
      return { ...r, target, cpuMsPerRequest, mainThreadMsPerRequest, probes, batches };
    };

    say(`warm-up: POST /v1/payments, ${WARMUP_SECONDS} s at concurrency 8, product then baseline`);
    const warm = await post("product", 8, WARMUP_SECONDS);
    const warmBaseline = await post("baseline", 8, WARMUP_SECONDS);
    sampler.takePhase();

    // Alternating, so that whatever else the machine is doing weighs on both alike.
    const schedule: Array<[Target, number]> = [];
    for (const c of SINGLE_PAIR_CONCURRENCIES.filter((c) => c < 32))
      for (let i = 0; i < (c === 1 ? PAIRS_C1 : 1); i++) schedule.push(["baseline", c], ["product", c]);
    for (let i = 0; i < PAIRS_C32; i++) schedule.push(["baseline", 32], ["product", 32]);
    for (const c of SINGLE_PAIR_CONCURRENCIES.filter((c) => c > 32)) schedule.push(["baseline", c], ["product", c]);
    const postRuns: PostRun[] = [];
    const c32Peaks: Record<string, number> = {};
    for (const [target, c] of schedule) {
      say(`POST /v1/payments (${target}), ${POST_SECONDS} s at concurrency ${c}`);
      const r = await post(target, c, POST_SECONDS);
      postRuns.push(r);
      const peaks = sampler.takePhase();
      if (target === "product" && c === 32) for (const [k, v] of Object.entries(peaks)) c32Peaks[k] = Math.max(c32Peaks[k] ?? 0, v);
      const cpu = Object.entries(r.cpuMsPerRequest)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(", ");
      say(
        `  ${r.rps.toFixed(0)} req/s, p50 ${fmt(r.p50, r.tool)} ms, p99 ${fmt(r.p99, r.tool)} ms, non-2xx ${r.non2xx}, errors ${r.errors}; CPU ms/request: ${cpu}`,
      );
      if (target === "product")
        say(
          `  creation statements by requests each: ${[...r.batches]
            .sort(([a], [b]) => a - b)
            .map(([size, n]) => `${size}:${n}`)
            .join(" ")}`,
        );
    }
    phasePeaks.push({ label: "POST c=32", peaks: c32Peaks });

    // Every 2xx must be a creation, not an idempotent replay: at least one row per 201
    // (plus at most one per connection for requests cut off when a run's time ran out).
    const checkCreated = async (target: Target, merchantId: string, warmRun: PostRun): Promise<string> => {
      const mine = postRuns.filter((r) => r.target === target);
      const created = await paymentsOf(s, merchantId);
      const ok = warmRun.ok2xx + mine.reduce((n, r) => n + r.ok2xx, 0);
      const cutOff = 8 + mine.reduce((n, r) => n + r.concurrency, 0);
      const line = `POST sanity check (${target}): ${ok} 2xx responses, ${created} payments in the database`;
      say(line);
      if (created < ok || created > ok + cutOff) throw new Error(`${line}: every request should have created exactly one payment`);
      return line;
    };
    const creationCheck = [
      await checkCreated("product", writer.merchantId, warm),
      await checkCreated("baseline", baselineMerchant.merchantId, warmBaseline),
    ].join("; ");
    const linkLines = CREATE_ONLY ? [] : await benchLinkPay(s, POST_SECONDS, say);
    const refundLines = CREATE_ONLY ? [] : await benchRefundCreate(s, POST_SECONDS, say);

    const pageLines = CREATE_ONLY ? [] : await benchPaymentPage(s, say);
    sampler.takePhase();

    const listUrl = `${s.baseUrl}/v1/payments?limit=25`;
    const listHeaders = { authorization: `Bearer ${reader.testApiKey}` };
    const check = await timedGet(listUrl, listHeaders);
    if (check.status !== 200) throw new Error(`GET /v1/payments answered ${check.status}`);
    for (const size of CREATE_ONLY ? [] : LIST_SIZES) {
      const have = await paymentsOf(s, reader.merchantId);
      if (have < size) {
        say(`inserting ${size - have} payments for the reader merchant (to ${size})`);
        const ti = Date.now();
        await insertPayments(s, reader.merchantId, size - have, have, say);
        say(`  took ${((Date.now() - ti) / 1000).toFixed(1)} s`);
      }
      const n = await paymentsOf(s, reader.merchantId);
      const label = `GET /v1/payments?limit=25 (${n.toLocaleString("en-US")} payments)`;
      // Short warm-up so plans and pools are hot.
      await preciseLoop(label, 4, 1, () => timedGet(listUrl, listHeaders));
      sampler.takePhase();
      say(`${label}: ${LIST_SECONDS} s at concurrency 1`);
      const r1 = await preciseLoop(label, 1, LIST_SECONDS, () => timedGet(listUrl, listHeaders));
      runs.push(r1);
      say(`  p50 ${r1.p50.toFixed(2)} ms, p99 ${r1.p99.toFixed(2)} ms`);
      say(`${label}: ${LIST_SECONDS} s at concurrency 8`);
      const r8 = await cannon({ label, url: listUrl, concurrency: 8, seconds: LIST_SECONDS, method: "GET", headers: listHeaders });
      runs.push(r8);
      phasePeaks.push({ label: `list ${n}`, peaks: sampler.takePhase() });
      say(`  ${r8.rps.toFixed(0)} req/s, p50 ${r8.p50} ms, p99 ${r8.p99} ms`);
    }
    // The dashboard's payments list against GET /v1/payments, and the CSV export (BENCH_DASHBOARD=0 skips it).
    const dashboardLines = process.env.BENCH_DASHBOARD === "0" || CREATE_ONLY ? [] : await benchDashboardReads(s, reader, say);
    const checkoutLines = CREATE_ONLY ? [] : await benchCheckoutLifecycle(s, say);
    sampler.stop();
    // Webhook delivery throughput and lag, on a stack of its own with the dispatcher (BENCH_WEBHOOKS=0 skips it).
    // Before the ledger part, which runs the core's code in this process: after it, the receivers this
    // process hosts answered healthy deliveries up to 14–23 s late while an endpoint hung (two runs of
    // two), which neither the same parts as separate processes on the same PostgreSQL nor a run
    // without the ledger part showed (test/bench/HISTORY.md, session 26).
    const webhookLines = process.env.BENCH_WEBHOOKS === "0" ? [] : [await webhookBench(), ""];
    // `ledger verify` over 1 000 000 lines against one scan of them (BENCH_LEDGER=0 skips it).
    const ledgerLines = process.env.BENCH_LEDGER === "0" ? [] : await benchLedgerVerify(say);

    // ---- report
    const lines: string[] = [];
    lines.push(`### Benchmark (${new Date().toISOString().slice(0, 10)})`);
    lines.push("");
    lines.push(
      `Command: \`npm run bench\` (test/bench/bench.ts; POST ${POST_SECONDS} s per run after a ${WARMUP_SECONDS} s warm-up, list ${LIST_SECONDS} s per run; processes at LOG_LEVEL=${LOG_LEVEL})`,
    );
    for (const name of ["core", "facade"] as const) {
      const { args } = launchCommand(name);
      lines.push(`${name}: \`node ${args.map((a) => path.relative(process.cwd(), a) || a).join(" ")}\``);
    }
    lines.push(
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.versions.node}; load generator, facade, core and PostgreSQL on the same host over loopback.`,
    );
    lines.push("");
    lines.push(
      `POST /v1/payments against the one-hop baseline (test/bench/baseline-server.ts: node:http + pg running the creation statement), run alternately, baseline first, with the same body and a fresh Idempotency-Key per request; concurrency ≤ ${PRECISE_UP_TO}: a closed loop of node:http keep-alive clients timed with performance.now() (latency to 0.01 ms), above: autocannon (whole ms):`,
    );
    lines.push("");
    lines.push(
      "| Concurrency | Pair | Baseline req/s | Baseline p50 (ms) | Baseline p99 (ms) | Product req/s | Product p50 (ms) | Product p99 (ms) | Throughput product / baseline | p50 product / baseline | p99 product / baseline | Non-2xx + errors |",
    );
    lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    const pairs: Array<{ c: number; base: PostRun; prod: PostRun; rpsRatio: number; p50Ratio: number; p99Ratio: number }> = [];
    for (let i = 0; i + 1 < postRuns.length; i += 2) {
      const base = postRuns[i]!;
      const prod = postRuns[i + 1]!;
      pairs.push({ c: prod.concurrency, base, prod, rpsRatio: prod.rps / base.rps, p50Ratio: prod.p50 / base.p50, p99Ratio: prod.p99 / base.p99 });
    }
    for (const c of [...new Set(pairs.map((p) => p.c))]) {
      const mine = pairs.filter((p) => p.c === c);
      mine.forEach((p, i) => {
        const bad = p.base.non2xx + p.base.errors + p.prod.non2xx + p.prod.errors;
        lines.push(
          `| ${c} | ${i + 1} | ${p.base.rps.toFixed(0)} | ${fmt(p.base.p50, p.base.tool)} | ${fmt(p.base.p99, p.base.tool)} | ${p.prod.rps.toFixed(0)} | ${fmt(p.prod.p50, p.prod.tool)} | ${fmt(p.prod.p99, p.prod.tool)} | ${p.rpsRatio.toFixed(2)}× | ${p.p50Ratio.toFixed(2)}× | ${p.p99Ratio.toFixed(2)}× | ${bad} |`,
        );
      });
      if (mine.length > 1) {
        const m = (f: (p: (typeof mine)[number]) => number) => median(mine.map(f));
        lines.push(
          `| ${c} | median | ${m((p) => p.base.rps).toFixed(0)} | ${medianMs(mine, "base", "p50")} | ${medianMs(mine, "base", "p99")} | ${m((p) => p.prod.rps).toFixed(0)} | ${medianMs(mine, "prod", "p50")} | ${medianMs(mine, "prod", "p99")} | **${m((p) => p.rpsRatio).toFixed(2)}×** | **${m((p) => p.p50Ratio).toFixed(2)}×** | **${m((p) => p.p99Ratio).toFixed(2)}×** | |`,
        );
      }
    }
    lines.push("");
    const c32Pairs = pairs.filter((p) => p.c === 32);
    if (c32Pairs.length > 0) {
      const rpsRatio = median(c32Pairs.map((p) => p.rpsRatio));
      const p99Ratio = median(c32Pairs.map((p) => p.p99Ratio));
      // Issue 20's targets.
      lines.push(
        `Concurrency 32, median of ${c32Pairs.length} pair(s): throughput ${rpsRatio.toFixed(2)}× the baseline's (target ≥ 0.80×: ${rpsRatio >= 0.8 ? "met" : "missed"}), p99 ${p99Ratio.toFixed(2)}× the baseline's (target ≤ 1.50×: ${p99Ratio <= 1.5 ? "met" : "missed"}).`,
      );
      const c1Pairs = pairs.filter((p) => p.c === 1);
      if (c1Pairs.length > 0) {
        const p50Ratio = median(c1Pairs.map((p) => p.p50Ratio));
        lines.push(
          `Concurrency 1, median of ${c1Pairs.length} pair(s): p50 ${p50Ratio.toFixed(2)}× the baseline's (medians ${medianMs(c1Pairs, "prod", "p50")} against ${medianMs(c1Pairs, "base", "p50")} ms; target ≤ 1.60×: ${p50Ratio <= 1.6 ? "met" : "missed"}).`,
        );
      }
      lines.push("");
    }
    lines.push(
      "CPU time per created payment (ms, median over the runs at each concurrency; PostgreSQL = this database's backends, without its background writers; load generator = autocannon in the bench process):",
    );
    lines.push("");
    lines.push(
      "| Concurrency | Product: facade | Product: core | Product: PostgreSQL | Product: load generator | Product total | Baseline: process | Baseline: PostgreSQL | Baseline: load generator | Baseline total |",
    );
    lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const c of [...new Set(pairs.map((p) => p.c))]) {
      const mine = pairs.filter((p) => p.c === c);
      const cpu = (side: "base" | "prod", name: string) => median(mine.map((p) => p[side].cpuMsPerRequest[name] ?? NaN));
      const total = (side: "base" | "prod") => median(mine.map((p) => Object.values(p[side].cpuMsPerRequest).reduce((a, b) => a + b, 0)));
      lines.push(
        `| ${c} | ${cpu("prod", "facade").toFixed(2)} | ${cpu("prod", "core").toFixed(2)} | ${cpu("prod", "postgres").toFixed(2)} | ${cpu("prod", "load generator").toFixed(2)} | ${total("prod").toFixed(2)} | ${cpu("base", "baseline").toFixed(2)} | ${cpu("base", "postgres").toFixed(2)} | ${cpu("base", "load generator").toFixed(2)} | ${total("base").toFixed(2)} |`,
      );
    }
    lines.push("");
    lines.push(
      "Of that, each Node process's main thread (its event loop; the rest is V8's GC helpers, libuv's pool and the request-log threads), µs per payment: the hops' cost per request grows as concurrency falls, since each request then wakes each process on its own:",
    );
    lines.push("");
    lines.push("| Concurrency | Product: facade main thread | Product: core main thread | Baseline: main thread |");
    lines.push("|---:|---:|---:|---:|");
    for (const c of [...new Set(pairs.map((p) => p.c))]) {
      const mine = pairs.filter((p) => p.c === c);
      const main = (side: "base" | "prod", name: string) => (1000 * median(mine.map((p) => p[side].mainThreadMsPerRequest[name] ?? NaN))).toFixed(0);
      lines.push(`| ${c} | ${main("prod", "facade")} | ${main("prod", "core")} | ${main("base", "baseline")} |`);
    }
    lines.push("");
    lines.push(
      `Group commit (CREATE_BATCH=${process.env.CREATE_BATCH ?? "default"}): the core's creation statements during the product runs, by requests per statement (paytami_core_create_batches):`,
    );
    lines.push("");
    lines.push("| Concurrency | Statements | Requests per statement (mean) | Largest | Requests alone | in batches of 2–7 | of 8–31 | of 32+ |");
    lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const c of [...new Set(pairs.map((p) => p.c))])
      lines.push(
        batchLine(
          c,
          pairs.filter((p) => p.c === c).map((p) => p.prod.batches),
        ),
      );
    lines.push("");
    if (PROBE_DIR) {
      lines.push("Inside the Node processes during each run (probe.ts: perf_hooks GC entries, monitorEventLoopDelay, event-loop utilization):");
      lines.push("");
      lines.push(
        "| Run | Process | ELU | Loop delay p50 / p99 / max (ms) | Minor GCs | Major + incremental GCs | GC ms per s | Longest GC (ms) | GC ms per 1000 payments | Heap used at end (MB) |",
      );
      lines.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
      for (const r of postRuns) {
        for (const [name, p] of Object.entries(r.probes)) {
          const all = Object.values(p.gc);
          const gcMs = all.reduce((n, k) => n + k.ms, 0);
          const longest = all.reduce((n, k) => Math.max(n, k.maxMs), 0);
          const major = (p.gc.major?.count ?? 0) + (p.gc.incremental?.count ?? 0);
          const d = p.loopDelayMs;
          lines.push(
            `| ${r.target} c=${r.concurrency} | ${name} | ${p.eventLoopUtilization.toFixed(2)} | ${d.p50.toFixed(1)} / ${d.p99.toFixed(1)} / ${d.max.toFixed(1)} | ${p.gc.minor?.count ?? 0} | ${major} | ${(gcMs / p.seconds).toFixed(1)} | ${longest.toFixed(1)} | ${((gcMs / Math.max(1, r.ok2xx)) * 1000).toFixed(0)} | ${p.heapUsedMb.toFixed(0)} |`,
          );
        }
      }
      lines.push("");
      lines.push(
        "Where the resident memory was at the end of each product run (MB; V8's spaces as committed; the rest of the RSS is code, stacks and the allocator's own):",
      );
      lines.push("");
      lines.push("| Run | Process | RSS | V8 heap committed | new space | old space | code space | large objects | external (buffers) |");
      lines.push("|---|---|---:|---:|---:|---:|---:|---:|---:|");
      for (const r of postRuns.filter((r) => r.target === "product")) {
        for (const [name, p] of Object.entries(r.probes)) {
          const m = p.memoryMb;
          if (!m) continue;
          const f = (k: string) => (m[k] ?? 0).toFixed(0);
          lines.push(
            `| c=${r.concurrency} | ${name} | ${f("rss")} | ${f("heapTotal")} | ${f("new_space")} | ${f("old_space")} | ${f("code_space")} | ${((m.large_object_space ?? 0) + (m.new_large_object_space ?? 0)).toFixed(0)} | ${f("external")} |`,
          );
        }
      }
      lines.push("");
    }
    lines.push("| Request | Concurrency | Requests/s | p50 (ms) | p99 (ms) | Requests | Non-2xx | Errors | Measured with |");
    lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const r of runs) {
      lines.push(
        `| ${r.label} | ${r.concurrency} | ${r.rps.toFixed(0)} | ${fmt(r.p50, r.tool)} | ${fmt(r.p99, r.tool)} | ${r.total} | ${r.non2xx} | ${r.errors} | ${r.tool} |`,
      );
    }
    lines.push("");
    lines.push(creationCheck + ".");
    lines.push("");
    lines.push(...linkLines);
    lines.push(...refundLines);
    lines.push(...pageLines);
    const listC1 = runs.filter((r) => r.label.startsWith("GET") && r.concurrency === 1);
    if (listC1.length >= 2) {
      const first = listC1[0]!;
      const last = listC1[listC1.length - 1]!;
      lines.push(
        `List p50 ratio (largest / smallest, concurrency 1): ${(last.p50 / first.p50).toFixed(2)}× (${last.p50.toFixed(2)} ms vs ${first.p50.toFixed(2)} ms)`,
      );
      lines.push("");
    }
    lines.push("| Process | RSS idle | Peak RSS during POST c=32 | Peak RSS overall (sampled) | of which anonymous | VmHWM |");
    lines.push("|---|---:|---:|---:|---:|---:|");
    const c32 = phasePeaks.find((p) => p.label === "POST c=32")?.peaks ?? {};
    for (const name of ["facade", "core"]) {
      lines.push(
        `| ${name} | ${mb(idle[name])} | ${mb(c32[name])} | ${mb(sampler.overall[name]?.rssMaxKb)} | ${mb(sampler.anonAtPeak[name])} | ${mb(sampler.overall[name]?.hwmKb)} |`,
      );
    }
    lines.push("");
    lines.push(...dashboardLines);
    lines.push(...checkoutLines);
    lines.push(...ledgerLines);
    lines.push(...webhookLines);
    // Creation with tracing on (a local OTLP collector) against off, two stacks of its own (BENCH_TRACING=0 skips it).
    if (process.env.BENCH_TRACING !== "0") lines.push(...(await benchTracing()));
    // Creation with request logs on against off and against an unreachable NATS, three stacks of its own (BENCH_REQUEST_LOGS=0 skips it).
    if (process.env.BENCH_REQUEST_LOGS !== "0") lines.push(...(await benchRequestLogs()));
    // POST /v1/payments through HAProxy on `npm run cluster` against the single stack (BENCH_CLUSTER=0 skips it).
    if (process.env.BENCH_CLUSTER !== "0") lines.push(...(await benchCluster()));
    lines.push(`Total bench time: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const report = lines.join("\n");
    process.stdout.write(report + "\n");
    if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, report + "\n");
  } catch (e) {
    stack?.printLogTails(40);
    throw e;
  } finally {
    sampler?.stop();
    agent.destroy();
    await baseline?.stop().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    if (stack && process.env.BENCH_KEEP_LOGS === "1") say(`process logs kept in ${stack.logDir}`);
    else if (stack) fs.rmSync(stack.logDir, { recursive: true, force: true });
    await infra.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench  | failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
