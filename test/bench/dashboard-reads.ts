// The dashboard part of `npm run bench` (issue 16), on the main bench stack's reader merchant
// (BENCH_DASHBOARD_PAYMENTS payments, 1 000 000 by default, topped up with payment-fill.ts):
//   1. the dashboard's payments list with a status filter and a date range (dashboard.payments.list,
//      called on the core's tRPC as the facade forwards it: the facade's credential and a signed-in
//      viewer's session) against GET /v1/payments?status=…&limit=25 through the facade, same page
//      size, same merchant, alternately, concurrency 1: p50 each and their ratio (target ≤ 1.3×), with
//      the list query's plan (EXPLAIN ANALYZE);
//   2. the CSV export of BENCH_DASHBOARD_EXPORT_ROWS (100 000) payments through the facade's
//      /dashboard/export/payments.csv: rows/s (target ≥ 50 000) and the core's RSS growth over the
//      export, VmRSS sampled every 20 ms (target < 50 MB).
// BENCH_DASHBOARD=0 skips it; BENCH_DASHBOARD_SECONDS (6) per list run, BENCH_DASHBOARD_PAIRS (2).
import { isMain, runAlone, say } from "./run-alone.ts";
import * as http from "node:http";
import { seedUser, signedIn } from "../support/dashboard.ts";
import type { Merchant, Stack } from "../support/stack.ts";
import { insertPayments } from "./payment-fill.ts";
import { rssKb } from "./process-cpu.ts";
import { keepAliveAgent } from "../support/keep-alive-agent.ts";

const PAYMENTS = Number(process.env.BENCH_DASHBOARD_PAYMENTS ?? 1_000_000);
const EXPORT_ROWS = Number(process.env.BENCH_DASHBOARD_EXPORT_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_DASHBOARD_SECONDS ?? 6);
const PAIRS = Number(process.env.BENCH_DASHBOARD_PAIRS ?? 2);
const PAGE = 25;
const STATUS = "captured";

const agent = keepAliveAgent(4);

function timedGet(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number; body: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, body }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Closed loop at concurrency 1 for `seconds`: p50 and p99 of the 2xx answers; anything else fails the bench. */
async function loop(url: string, headers: Record<string, string>, seconds: number): Promise<{ p50: number; p99: number; n: number }> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const r = await timedGet(url, headers);
    if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}: ${r.body.slice(0, 300)}`);
    times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!, n: times.length };
}

/** One download of the export, through the facade (the browser's way) or straight from the core (the facade's headers). */
async function exportOnce(
  s: Stack,
  session: string,
  query: string,
  via: "facade" | "core",
): Promise<{ via: string; rows: number; ms: number; growthKb: number; firstByteMs: number }> {
  const url = via === "facade" ? `${s.baseUrl}/dashboard/export/payments.csv?${query}` : `${s.coreHttpUrl}/dashboard/export/payments.csv?${query}`;
  const headers: Record<string, string> =
    via === "facade" ? { cookie: `paytami_session=${session}` } : { authorization: `Bearer ${s.facadeToken}`, "x-paytami-session": session };
  const core = s.pids().core!;
  const before = rssKb(core) ?? 0;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(core) ?? 0)), 20);
  const t0 = performance.now();
  try {
    return await new Promise((resolve, reject) => {
      http
        .get(url, { headers, agent }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`the export answered ${res.statusCode}`));
          const firstByteMs = performance.now() - t0;
          let lines = 0;
          res.on("data", (chunk: Buffer) => {
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          });
          res.on("end", () => resolve({ via, rows: lines - 1, ms: performance.now() - t0, growthKb: Math.max(0, peak - before), firstByteMs }));
          res.on("error", reject);
        })
        .on("error", reject);
    });
  } finally {
    clearInterval(sampler);
  }
}

export async function benchDashboardReads(s: Stack, reader: Merchant, say: (msg: string) => void): Promise<string[]> {
  const count = async () => Number((await s.sql<{ n: string }>("select count(*)::text as n from payments where merchant_id = $1", [reader.merchantId]))[0]!.n);
  const have = await count();
  if (have < PAYMENTS) {
    say(`dashboard: inserting ${PAYMENTS - have} payments for the reader merchant (to ${PAYMENTS})`);
    await insertPayments(s, reader.merchantId, PAYMENTS - have, have, say);
  }
  const n = await count();
  const session = await signedIn(s, await seedUser(s, reader.merchantId, "viewer"));
  const [span] = await s.sql<{ newest: Date }>("select max(created_at) as newest from payments where merchant_id = $1 and mode = 'test'", [reader.merchantId]);
  const day = 86_400_000;
  // A range well inside the data, whatever its size: a fifth of it, ending a fifth of the way back.
  const spanMs = Math.max(n * 31_000, day);
  const to = new Date(span!.newest.getTime() - spanMs / 5);
  const from = new Date(to.getTime() - spanMs / 5);
  const filters = { status: STATUS, created_from: from.toISOString(), created_to: to.toISOString(), limit: PAGE };

  const plan = await s.sql<{ "QUERY PLAN": string }>(
    `explain (analyze, buffers) select id, status, currency, amount, service_fee, net_amount, description, created_at, method_type, customer_email, customer_name, link_id
       from payments where merchant_id = $1 and mode = 'test' and status = $2 and created_at >= $3 and created_at < $4
       order by created_at desc, seq desc limit ${PAGE + 1}`,
    [reader.merchantId, STATUS, from, to],
  );
  const planText = plan.map((r) => r["QUERY PLAN"]);
  say(`dashboard list plan:\n${planText.join("\n")}`);
  // The search by e-mail prefix (payment-fill.ts gives every other payment cliente<g>@example.com).
  const searchPlan = (
    await s.sql<{ "QUERY PLAN": string }>(
      `explain (analyze, buffers) select id from payments where merchant_id = $1 and mode = 'test' and customer_email is not null
         and lower(customer_email) like 'cliente12345%' order by created_at desc, seq desc limit ${PAGE + 1}`,
      [reader.merchantId],
    )
  ).map((r) => r["QUERY PLAN"]);
  say(`dashboard e-mail search plan:\n${searchPlan.join("\n")}`);

  const dashboardUrl = `${s.coreHttpUrl}/trpc/dashboard.payments.list?input=${encodeURIComponent(JSON.stringify(filters))}`;
  const dashboardHeaders = { authorization: `Bearer ${s.facadeToken}`, "x-paytami-session": session, "x-paytami-client-ip": "127.0.0.1" };
  const restUrl = `${s.baseUrl}/v1/payments?status=${STATUS}&limit=${PAGE}`;
  const restHeaders = { authorization: `Bearer ${reader.testApiKey}` };
  const check = JSON.parse((await timedGet(dashboardUrl, dashboardHeaders)).body) as { result: { data: { data: unknown[] } } };
  if (check.result.data.data.length !== PAGE) throw new Error(`the dashboard list answered ${check.result.data.data.length} payments, not ${PAGE}`);
  await loop(restUrl, restHeaders, 1);
  await loop(dashboardUrl, dashboardHeaders, 1);
  const rest: number[] = [];
  const dash: number[] = [];
  const rows: string[] = [];
  for (let i = 0; i < PAIRS; i++) {
    say(`dashboard: GET /v1/payments (status) then dashboard.payments.list (status + dates), ${SECONDS} s each, pair ${i + 1}`);
    const r = await loop(restUrl, restHeaders, SECONDS);
    const d = await loop(dashboardUrl, dashboardHeaders, SECONDS);
    rest.push(r.p50);
    dash.push(d.p50);
    rows.push(
      `| ${i + 1} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.n} | ${d.p50.toFixed(2)} | ${d.p99.toFixed(2)} | ${d.n} | ${(d.p50 / r.p50).toFixed(2)}× |`,
    );
    say(`  REST p50 ${r.p50.toFixed(2)} ms, dashboard p50 ${d.p50.toFixed(2)} ms`);
  }
  const ratio = median(dash) / median(rest);

  const [edge] = await s.sql<{ created_at: Date }>(
    `select created_at from payments where merchant_id = $1 and mode = 'test' order by created_at desc, seq desc offset ${EXPORT_ROWS - 1} limit 1`,
    [reader.merchantId],
  );
  const exportQuery = `created_from=${encodeURIComponent(edge!.created_at.toISOString())}`;
  const exports: Array<Awaited<ReturnType<typeof exportOnce>>> = [];
  for (const via of ["facade", "facade", "core"] as const) {
    const e = await exportOnce(s, session, exportQuery, via);
    if (e.rows !== EXPORT_ROWS) throw new Error(`the export had ${e.rows} rows, not ${EXPORT_ROWS}`);
    say(
      `dashboard: export of ${e.rows} rows in ${e.ms.toFixed(0)} ms (${((e.rows / e.ms) * 1000).toFixed(0)} rows/s), core RSS +${(e.growthKb / 1024).toFixed(1)} MB`,
    );
    exports.push(e);
  }
  const throughFacade = exports.filter((e) => e.via === "facade");
  const worstRate = Math.min(...throughFacade.map((e) => (e.rows / e.ms) * 1000));
  const worstGrowth = Math.max(...exports.map((e) => e.growthKb)) / 1024;
  agent.destroy();

  const index = /(?:Index (?:Only )?Scan(?: Backward)?|Bitmap Index Scan) (?:using|on) (\w+)/.exec(planText.join("\n"))?.[1] ?? "no index";
  const execution = /Execution Time: ([\d.]+) ms/.exec(planText.join("\n"))?.[1] ?? "?";
  const searchIndex = /(?:Index (?:Only )?Scan(?: Backward)?|Bitmap Index Scan) (?:using|on) (\w+)/.exec(searchPlan.join("\n"))?.[1] ?? "no index";
  const searchExecution = /Execution Time: ([\d.]+) ms/.exec(searchPlan.join("\n"))?.[1] ?? "?";
  return [
    `Dashboard payments list (${n.toLocaleString("en-US")} payments of one merchant; status=${STATUS} and a ${Math.round(spanMs / 5 / day)}-day range, limit ${PAGE}) against GET /v1/payments?status=${STATUS}&limit=${PAGE} of the same merchant, alternately, concurrency 1. The dashboard is timed at the core's tRPC (dashboard.payments.list with the facade's credential and a viewer's session, as the facade forwards it); REST through the facade:`,
    "",
    "| Pair | REST p50 (ms) | REST p99 (ms) | REST requests | Dashboard p50 (ms) | Dashboard p99 (ms) | Dashboard requests | p50 dashboard / REST |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `Median p50 ratio: **${ratio.toFixed(2)}×** (target ≤ 1.30×: ${ratio <= 1.3 ? "met" : "missed"}). The list query's plan: ${index}, ${execution} ms in PostgreSQL (EXPLAIN ANALYZE); an e-mail prefix search: ${searchIndex}, ${searchExecution} ms.`,
    "",
    `CSV export of ${EXPORT_ROWS.toLocaleString("en-US")} payments (/dashboard/export/payments.csv, keyset batches of DASHBOARD_EXPORT_BATCH), twice through the facade, then once from the core directly:`,
    "",
    "| Run | Via | Rows | Time (ms) | First byte (ms) | Rows/s | Core RSS growth (MB) |",
    "|---:|---|---:|---:|---:|---:|---:|",
    ...exports.map(
      (e, i) =>
        `| ${i + 1} | ${e.via} | ${e.rows} | ${e.ms.toFixed(0)} | ${e.firstByteMs.toFixed(1)} | ${((e.rows / e.ms) * 1000).toFixed(0)} | ${(e.growthKb / 1024).toFixed(1)} |`,
    ),
    "",
    `Slowest export through the facade: ${worstRate.toFixed(0)} rows/s (target ≥ 50 000: ${worstRate >= 50_000 ? "met" : "missed"}); largest core RSS growth ${worstGrowth.toFixed(1)} MB (target < 50 MB: ${worstGrowth < 50 ? "met" : "missed"}).`,
    "",
  ];
}

// Standalone: `node test/bench/dashboard-reads.ts` (run-alone.ts), for trying small sizes
// (BENCH_DASHBOARD_PAYMENTS=100000 BENCH_DASHBOARD_EXPORT_ROWS=20000) before the whole bench.
if (isMain(import.meta)) {
  await runAlone(async () => {
    const { startStack } = await import("../support/stack.ts");
    const stack = await startStack({ logLevel: "warn", env: { SETTLEMENT_DELAYS: "3650d,3650d,3650d" } });
    try {
      return await benchDashboardReads(stack, await stack.admin.createMerchant({ name: "Bench Reader" }), say);
    } finally {
      await stack.stop();
    }
  });
}
