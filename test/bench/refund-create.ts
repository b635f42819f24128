// The refund section of `npm run bench` (issue 9, "Performance"): POST /v1/refunds at concurrency 32
// as a ratio to POST /v1/payments on the same stack in the same run, run alternately (target:
// ≥ 0.8× the throughput, p99 ≤ 1.25×). The payments to refund are created and captured before the
// timed part; each refund takes 1 minor unit of one of them, round robin, so refunds of one payment
// (which serialize on its row lock) are 1/REFUND_PAYMENTS of the load, as on a real shop.
//
// Tunables: BENCH_SECONDS (run length, shared with bench.ts), BENCH_REFUND_ROUNDS (default 3).
// Alone: `node test/bench/refund-create.ts` (provisions its own PostgreSQL + NATS like bench.ts);
// REFUND_BATCH=off in its environment turns the core's group commit of refunds off (A/B).
// Besides throughput it reports CPU ms per request of the facade, the core, the PostgreSQL
// backends and the nats-server a refund's event goes to (utime + stime from /proc/<pid>/stat, as
// bench.ts), the refund batch sizes (paytami_core_refund_batches), the share of row updates that
// were HOT (touching no index), and, when the cluster runs pg_stat_statements
// (PAYTAMI_PG_SETTINGS="shared_preload_libraries=pg_stat_statements"), PostgreSQL's time and WAL per
// request by statement: so a shared machine's noise can be told from the code's cost.

import { isMain, runAlone, say } from "./run-alone.ts";
import { coreBatches } from "./core-batches.ts";
import { cpuOf, cpuSpent, natsServerPids } from "./process-cpu.ts";
import { randomUUID } from "node:crypto";
import * as os from "node:os";
import autocannon from "autocannon";
import type { Stack } from "../support/stack.ts";

const ROUNDS = Number(process.env.BENCH_REFUND_ROUNDS ?? 3);
const REFUND_PAYMENTS = 1024;

interface Run {
  rps: number;
  p50: number;
  p99: number;
  ok2xx: number;
  bad: number;
  /** CPU ms per 2xx request, per process group. */
  cpu: Record<Group, number>;
  /** PostgreSQL's own account of the run, when pg_stat_statements is loaded (see `statementsOf`). */
  statements: StatementCost[];
}

type Group = "facade" | "core" | "postgres" | "nats";

/** CPU ms of every process of each group now (PostgreSQL: the backends connected to the stack's database; NATS: the server the outbox relay publishes a refund's event to). */
async function cpuSnapshot(s: Stack): Promise<Record<Group, Map<number, number>>> {
  const backends = await s.sql<{ pid: number }>("select pid from pg_stat_activity where datname = current_database()");
  return cpuOf({ facade: [s.pids().facade!], core: [s.pids().core!], postgres: backends.map((b) => b.pid), nats: natsServerPids() });
}

/** CPU ms each group spent between two snapshots, per request (a backend that started in between counts from zero). */
function cpuPerRequest(before: Record<Group, Map<number, number>>, after: Record<Group, Map<number, number>>, requests: number): Record<Group, number> {
  const spent = cpuSpent(before, after) as Record<Group, number>;
  for (const name of Object.keys(spent) as Group[]) spent[name] = requests > 0 ? spent[name] / requests : 0;
  return spent;
}

type Target = "payments" | "refunds";

interface Request {
  path: string;
  headers: Record<string, string>;
  body: () => string;
}

/** One run of `req`; `counting`: the cluster runs pg_stat_statements, emptied before the run and read after it. */
async function cannon(s: Stack, req: Request, concurrency: number, seconds: number, counting: boolean): Promise<Run> {
  if (counting) await s.sql("SELECT pg_stat_statements_reset()");
  const before = await cpuSnapshot(s);
  const result = await autocannon({
    url: s.baseUrl + req.path,
    connections: concurrency,
    duration: seconds,
    method: "POST",
    headers: req.headers,
    body: req.body(),
    requests: [
      {
        setupRequest: (r: any) => {
          r.headers = { ...r.headers, "idempotency-key": randomUUID() };
          r.body = req.body();
          return r;
        },
      },
    ],
  });
  const after = await cpuSnapshot(s);
  return {
    statements: counting ? await statementsOf(s) : [],
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok2xx: result["2xx"],
    bad: result.non2xx + result.errors + result.timeouts,
    cpu: cpuPerRequest(before, after, result["2xx"]),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Creates and captures `n` payments of the merchant's (16 at a time); returns their ids. */
async function capturedPayments(s: Stack, apiKey: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  const one = async () => {
    const res = await s.http.createPayment(apiKey, {
      amount: "10000000",
      currency: "GTQ",
      method_type: "card",
      success_url: "https://shop.example.com/thanks",
      cancel_url: "https://shop.example.com/cart",
    });
    if (res.status !== 201) throw new Error(`POST /v1/payments answered ${res.status}: ${res.text}`);
    await s.admin.simulate(res.json.id, "succeed");
    ids.push(res.json.id as string);
  };
  for (let i = 0; i < n; i += 16) await Promise.all(Array.from({ length: Math.min(16, n - i) }, one));
  return ids;
}

/** Runs the section on `s` and returns its markdown report. */
export async function benchRefundCreate(s: Stack, seconds: number, say: (msg: string) => void): Promise<string[]> {
  const merchant = await s.admin.createMerchant({ name: "Bench Refunds" });
  say(`refunds: creating and capturing ${REFUND_PAYMENTS} payments to refund`);
  const payments = await capturedPayments(s, merchant.testApiKey, REFUND_PAYMENTS);
  const headers = { "content-type": "application/json", authorization: `Bearer ${merchant.testApiKey}` };
  const paymentBody = JSON.stringify({
    amount: "12345",
    currency: "GTQ",
    method_type: "card",
    description: "Camisa típica",
    success_url: "https://shop.example.com/thanks",
    cancel_url: "https://shop.example.com/cart",
    customer: { email: "ana@example.com", name: "Ana López" },
  });
  let next = 0;
  const targets: Record<Target, Request> = {
    payments: { path: "/v1/payments", headers, body: () => paymentBody },
    refunds: {
      path: "/v1/refunds",
      headers,
      body: () => JSON.stringify({ payment_id: payments[next++ % payments.length], amount: "1", reason: "requested_by_customer" }),
    },
  };
  const order: Target[] = ["payments", "refunds"];
  const refundsBefore = await refundCount(s, merchant.merchantId);
  const counting = await statementsCountable(s);

  const warmup = Math.min(3, seconds);
  say(`refunds: warm-up, ${warmup} s at concurrency 8 per target`);
  let warmOk = 0;
  for (const t of order) {
    const r = await cannon(s, targets[t], 8, warmup, counting);
    if (t === "refunds") warmOk += r.ok2xx;
  }
  const runs: Array<Record<Target, Run>> = [];
  const batchesBefore = await coreBatches(s, "refund");
  const updatesBefore = await tableUpdates(s);
  for (let round = 1; round <= ROUNDS; round++) {
    const pair = {} as Record<Target, Run>;
    for (const t of order) {
      say(`refunds: round ${round}/${ROUNDS}, POST /v1/${t}, ${seconds} s at concurrency 32`);
      const r = await cannon(s, targets[t], 32, seconds, counting);
      const cpu = `CPU ms/request facade ${r.cpu.facade.toFixed(2)}, core ${r.cpu.core.toFixed(2)}, postgres ${r.cpu.postgres.toFixed(2)}, nats ${r.cpu.nats.toFixed(2)}`;
      say(`  ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx + errors ${r.bad}; ${cpu}; load ${os.loadavg()[0]!.toFixed(1)}`);
      pair[t] = r;
    }
    runs.push(pair);
  }

  const batchesAfter = await coreBatches(s, "refund");
  const updatesAfter = await tableUpdates(s);
  const batches = [...batchesAfter].map(([size, n]) => [size, n - (batchesBefore.get(size) ?? 0)] as const).filter(([, n]) => n > 0);

  // Every 2xx must be a refund created (not a replay, not lost).
  const ok = warmOk + runs.reduce((n, r) => n + r.refunds.ok2xx, 0);
  const created = (await refundCount(s, merchant.merchantId)) - refundsBefore;
  const cutOff = 8 + ROUNDS * 32;
  const sanity = `Refund sanity check: ${ok} 2xx refunds, ${created} refunds in the database`;
  say(sanity);
  if (created < ok || created > ok + cutOff) throw new Error(`${sanity}: every 2xx should have created exactly one refund`);
  const bad = runs.reduce((n, r) => n + r.payments.bad + r.refunds.bad, 0);

  const lines: string[] = [];
  lines.push(
    `Refunds (test/bench/refund-create.ts): POST /v1/refunds against POST /v1/payments on the same facade and core, alternately, ${seconds} s per run at concurrency 32, ${ROUNDS} rounds; each refund takes 1 minor unit of one of ${REFUND_PAYMENTS} captured payments (created before the timed part), round robin, with a fresh Idempotency-Key:`,
  );
  lines.push("");
  lines.push("| Round | POST /v1/payments req/s | p50 | p99 | POST /v1/refunds req/s | p50 | p99 | Refunds / payments: throughput | p99 |");
  lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const cells = (r: Run) => `${r.rps.toFixed(0)} | ${r.p50} | ${r.p99}`;
  runs.forEach((r, i) =>
    lines.push(
      `| ${i + 1} | ${cells(r.payments)} | ${cells(r.refunds)} | ${(r.refunds.rps / r.payments.rps).toFixed(2)}× | ${(r.refunds.p99 / r.payments.p99).toFixed(2)}× |`,
    ),
  );
  const rpsRatio = median(runs.map((r) => r.refunds.rps / r.payments.rps));
  const p99Ratio = median(runs.map((r) => r.refunds.p99 / r.payments.p99));
  const med = (t: Target) => `${median(runs.map((r) => r[t].rps)).toFixed(0)} | ${median(runs.map((r) => r[t].p50))} | ${median(runs.map((r) => r[t].p99))}`;
  lines.push(`| median | ${med("payments")} | ${med("refunds")} | **${rpsRatio.toFixed(2)}×** | **${p99Ratio.toFixed(2)}×** |`);
  lines.push("");
  lines.push("CPU ms per 2xx request (medians of the rounds; PostgreSQL: the backends connected to the database):");
  lines.push("");
  lines.push("| Target | facade | core | postgres | nats-server | total |");
  lines.push("|---|---:|---:|---:|---:|---:|");
  for (const t of order) {
    const m = (g: Group) => median(runs.map((r) => r[t].cpu[g]));
    lines.push(
      `| POST /v1/${t} | ${m("facade").toFixed(2)} | ${m("core").toFixed(2)} | ${m("postgres").toFixed(2)} | ${m("nats").toFixed(2)} | ${(m("facade") + m("core") + m("postgres") + m("nats")).toFixed(2)} |`,
    );
  }
  lines.push("");
  const batchRequests = batches.reduce((n, [size, count]) => n + size * count, 0);
  const batchCount = batches.reduce((n, [, count]) => n + count, 0);
  lines.push(
    batchCount === 0
      ? `Refund batches (REFUND_BATCH=${process.env.REFUND_BATCH ?? "default"}): none.`
      : `Refund batches (REFUND_BATCH=${process.env.REFUND_BATCH ?? "default"}) in the timed rounds: ${batchCount} for ${batchRequests} requests, ${(batchRequests / batchCount).toFixed(1)} requests per batch (mean), largest ${Math.max(...batches.map(([size]) => size))}, ${(((batches.find(([size]) => size === 1)?.[1] ?? 0) / batchRequests) * 100).toFixed(0)} % of requests alone.`,
  );
  lines.push("");
  for (const t of order) {
    const top = topStatements(runs.map((r) => r[t]));
    if (top.length === 0) continue;
    lines.push(
      `PostgreSQL's time per POST /v1/${t} by statement (pg_stat_statements, all rounds; PAYTAMI_PG_SETTINGS="shared_preload_libraries=pg_stat_statements"):`,
    );
    lines.push("");
    lines.push("| Statement | calls per request | µs per request | WAL bytes per request |");
    lines.push("|---|---:|---:|---:|");
    for (const x of top) lines.push(`| \`${x.query}\` | ${x.calls.toFixed(2)} | ${x.us.toFixed(1)} | ${x.walBytes.toFixed(0)} |`);
    lines.push("");
  }
  lines.push(
    `Row updates in the timed rounds (pg_stat_user_tables; a HOT update adds no index entry): ${UPDATED_TABLES.map((t) => {
      const upd = updatesAfter[t].upd - updatesBefore[t].upd;
      const hot = updatesAfter[t].hot - updatesBefore[t].hot;
      return `${t} ${upd} (${upd > 0 ? ((hot / upd) * 100).toFixed(0) : 0} % HOT)`;
    }).join(", ")}.`,
  );
  lines.push("");
  lines.push(
    `Refund creation at concurrency 32, median of ${ROUNDS} rounds: throughput ${rpsRatio.toFixed(2)}× POST /v1/payments' (target ≥ 0.80×: ${rpsRatio >= 0.8 ? "met" : "missed"}), p99 ${p99Ratio.toFixed(2)}× (target ≤ 1.25×: ${p99Ratio <= 1.25 ? "met" : "missed"}). ${sanity}; non-2xx + errors: ${bad}.`,
  );
  lines.push("");
  return lines;
}

/** One statement's share of a run: its execution time, calls and WAL per 2xx request. */
interface StatementCost {
  query: string;
  calls: number;
  us: number;
  walBytes: number;
}

/**
 * Whether PostgreSQL's statement statistics can be read: false unless the cluster was started with
 * pg_stat_statements in shared_preload_libraries (`PAYTAMI_PG_SETTINGS`, core/README.md).
 */
async function statementsCountable(s: Stack): Promise<boolean> {
  try {
    await s.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    await s.sql("SELECT pg_stat_statements_reset()");
    return true;
  } catch {
    return false;
  }
}

/** Every statement of the stack's database since the reset (the bench's own reads included: they are few and cheap). */
async function statementsOf(s: Stack): Promise<StatementCost[]> {
  const rows = await s.sql<{ query: string; calls: string; ms: number; wal: string }>(
    `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query, calls::text, total_exec_time AS ms, wal_bytes::text AS wal
       FROM pg_stat_statements JOIN pg_database d ON d.oid = dbid WHERE d.datname = current_database()`,
  );
  return rows.map((r) => ({ query: r.query, calls: Number(r.calls), us: r.ms * 1000, walBytes: Number(r.wal) }));
}

/** The statements that took most of PostgreSQL's time over `runs`, per 2xx request. */
function topStatements(runs: Run[], top = 8): StatementCost[] {
  const requests = runs.reduce((n, r) => n + r.ok2xx, 0);
  if (requests === 0) return [];
  const sum = new Map<string, StatementCost>();
  for (const x of runs.flatMap((r) => r.statements)) {
    const acc = sum.get(x.query) ?? { query: x.query, calls: 0, us: 0, walBytes: 0 };
    acc.calls += x.calls;
    acc.us += x.us;
    acc.walBytes += x.walBytes;
    sum.set(x.query, acc);
  }
  return [...sum.values()]
    .map((x) => ({ query: x.query, calls: x.calls / requests, us: x.us / requests, walBytes: x.walBytes / requests }))
    .sort((a, b) => b.us - a.us)
    .slice(0, top);
}

const UPDATED_TABLES = ["payments", "idempotency_keys", "outbox_pending"] as const;
type UpdateCounts = Record<(typeof UPDATED_TABLES)[number], { upd: number; hot: number }>;

/** Rows updated so far in each table a refund updates, and how many of those were HOT (heap-only: no index touched). */
async function tableUpdates(s: Stack): Promise<UpdateCounts> {
  // The statistics reach the shared view when a backend goes idle (at most a second late).
  await new Promise((r) => setTimeout(r, 1_500));
  const rows = await s.sql<{ relname: string; upd: string; hot: string }>(
    "SELECT relname, n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot FROM pg_stat_user_tables WHERE relname = ANY($1)",
    [[...UPDATED_TABLES]],
  );
  const of = (t: string) => rows.find((r) => r.relname === t);
  return Object.fromEntries(UPDATED_TABLES.map((t) => [t, { upd: Number(of(t)?.upd ?? 0), hot: Number(of(t)?.hot ?? 0) }])) as UpdateCounts;
}

async function refundCount(s: Stack, merchantId: string): Promise<number> {
  const r = await s.sql<{ n: string }>("SELECT count(*)::text AS n FROM refunds WHERE merchant_id = $1", [merchantId]);
  return Number(r[0]?.n ?? 0);
}

// Alone: this section only, on a stack of its own.
if (isMain(import.meta)) {
  await runAlone(async () => {
    const { startStack } = await import("../support/stack.ts");
    // As bench.ts: no settlement under the runs.
    const stack = await startStack({ logLevel: process.env.BENCH_LOG_LEVEL ?? "info", env: { SETTLEMENT_DELAYS: "3650d,3650d,3650d" } });
    try {
      const lines = await benchRefundCreate(stack, Number(process.env.BENCH_SECONDS ?? 10), say);
      return `Command: \`node test/bench/refund-create.ts\` (${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"})\n\n${lines.join("\n")}`;
    } finally {
      await stack.stop();
    }
  });
}
