// The payment-link section of `npm run bench` (issue 6, "Performance"):
//   - POST /v1/payment_links/{id}/pay at concurrency 32 with LINK_RATE_LIMIT raised out of the
//     way, every pay on ONE link (a link shared in a chat: its per-link counter is the hot row),
//     as a ratio to POST /v1/payments on the same stack in the same run, run alternately
//     (target: ≥ 0.9× the throughput, p99 ≤ 1.2×);
//   - the same on many links (the counter spread over rows);
//   - what the rate-limit check adds to p50: the same hot link through a second core + facade
//     on the same database with LINK_RATE_LIMIT=off, at concurrency 32 and 1.
// Each pay comes from its own client IP (X-Forwarded-For, the facade runs with TRUST_PROXY=true),
// as customers of a shared link do, so only the link's counter row is shared.
//
// Tunables: BENCH_SECONDS (run length, shared with bench.ts), BENCH_LINK_ROUNDS (default 3).
// Alone: `node test/bench/link-pay.ts` (run-alone.ts: its own PostgreSQL, NATS and stack).

import { randomBytes, randomUUID } from "node:crypto";
import * as http from "node:http";
import autocannon from "autocannon";
import type { Stack } from "../support/stack.ts";
import { isMain, runAlone, say } from "./run-alone.ts";
import { keepAliveAgent } from "../support/keep-alive-agent.ts";

/** What the bench stack's processes need for this section (harmless to the other sections). */
export const LINK_BENCH_ENV: Record<string, string> = {
  LINK_RATE_LIMIT: "1000000000/ip,1000000000/link,60s",
  TRUST_PROXY: "true",
};

const ROUNDS = Number(process.env.BENCH_LINK_ROUNDS ?? 3);
const MANY_LINKS = 64;

interface Run {
  /** What this database's active backends were waiting on, sampled every 100 ms: "type:event" → share of samples' backends. */
  waits?: Record<string, number>;
  rps: number;
  p50: number;
  p99: number;
  ok2xx: number;
  bad: number;
}

type Target = "payments" | "link" | "link, limit off" | "many links";

interface Request {
  url: () => string;
  headers: Record<string, string>;
  body: string;
}

function randomIp(): string {
  const b = randomBytes(4);
  return `10.${b[1]}.${b[2]}.${1 + (b[3]! % 254)}`;
}

async function cannon(req: Request, concurrency: number, seconds: number): Promise<Run> {
  const result = await autocannon({
    url: req.url(),
    connections: concurrency,
    duration: seconds,
    method: "POST",
    headers: req.headers,
    body: req.body,
    requests: [
      {
        setupRequest: (r: any) => {
          r.path = new URL(req.url()).pathname;
          r.headers = { ...r.headers, "idempotency-key": randomUUID(), "x-forwarded-for": randomIp() };
          return r;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok2xx: result["2xx"],
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

const agent = keepAliveAgent(4);

function timedPost(req: Request): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const r = http.request(
      req.url(),
      {
        method: "POST",
        agent,
        headers: { ...req.headers, "idempotency-key": randomUUID(), "x-forwarded-for": randomIp(), "content-length": Buffer.byteLength(req.body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
        res.on("error", reject);
      },
    );
    r.on("error", reject);
    r.end(req.body);
  });
}

/** One request at a time with a sub-millisecond timer (autocannon's latencies are whole milliseconds). */
async function serial(req: Request, seconds: number): Promise<Run> {
  const lat: number[] = [];
  let bad = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  while (performance.now() < end) {
    const r = await timedPost(req);
    if (r.status >= 200 && r.status < 300) lat.push(r.ms);
    else bad++;
  }
  const elapsed = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const at = (p: number) => lat[Math.min(lat.length - 1, Math.max(0, Math.ceil((p / 100) * lat.length) - 1))] ?? NaN;
  return { rps: (lat.length + bad) / elapsed, p50: at(50), p99: at(99), ok2xx: lat.length, bad };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Samples pg_stat_activity while `work` runs: where the backends of the stack's database wait. */
async function sampleWaits<T extends Run>(s: Stack, work: Promise<T>): Promise<T> {
  const counts: Record<string, number> = {};
  let total = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      const rows = await s.sql<{ w: string; n: string }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') AS w, count(*)::text AS n
           FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() GROUP BY 1`,
      );
      for (const r of rows) {
        counts[r.w] = (counts[r.w] ?? 0) + Number(r.n);
        total += Number(r.n);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const r = await work;
  done = true;
  await sampler;
  const waits: Record<string, number> = {};
  for (const [k, n] of Object.entries(counts)) waits[k] = n / Math.max(1, total);
  return { ...r, waits };
}

const topWaits = (r: Run) =>
  Object.entries(r.waits ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
    .join(", ");

async function createLink(s: Stack, apiKey: string): Promise<string> {
  const res = await s.http.post("/v1/payment_links", {
    key: apiKey,
    idem: randomUUID(),
    // The pay body's return URLs must lie on an origin the merchant trusts: the link's own.
    body: {
      title: "Camisa típica",
      currency: "GTQ",
      fixed_amount_minor: "12345",
      success_url: "https://shop.example.com/thanks",
      cancel_url: "https://shop.example.com/cart",
    },
  });
  if (res.status !== 201) throw new Error(`POST /v1/payment_links answered ${res.status}: ${res.text}`);
  return (res.json as { id: string }).id;
}

/** Runs the section on `s` (started with LINK_BENCH_ENV) and returns its markdown report. */
export async function benchLinkPay(s: Stack, seconds: number, say: (msg: string) => void): Promise<string[]> {
  const merchant = await s.admin.createMerchant({ name: "Bench Links" });
  const hot = await createLink(s, merchant.testApiKey);
  const many: string[] = [];
  for (let i = 0; i < MANY_LINKS; i++) many.push(await createLink(s, merchant.testApiKey));
  const off = await s.addInstance({ LINK_RATE_LIMIT: "off" });

  const json = { "content-type": "application/json" };
  const payBody = JSON.stringify({
    method_type: "card",
    success_url: "https://shop.example.com/thanks",
    cancel_url: "https://shop.example.com/cart",
    customer: { email: "ana@example.com", name: "Ana López" },
  });
  let next = 0;
  const targets: Record<Target, Request> = {
    payments: {
      url: () => `${s.baseUrl}/v1/payments`,
      headers: { ...json, authorization: `Bearer ${merchant.testApiKey}` },
      body: JSON.stringify({
        amount: "12345",
        currency: "GTQ",
        method_type: "card",
        description: "Camisa típica",
        success_url: "https://shop.example.com/thanks",
        cancel_url: "https://shop.example.com/cart",
        customer: { email: "ana@example.com", name: "Ana López" },
      }),
    },
    link: { url: () => `${s.baseUrl}/v1/payment_links/${hot}/pay`, headers: json, body: payBody },
    "link, limit off": { url: () => `${off.baseUrl}/v1/payment_links/${hot}/pay`, headers: json, body: payBody },
    "many links": { url: () => `${s.baseUrl}/v1/payment_links/${many[next++ % MANY_LINKS]}/pay`, headers: json, body: payBody },
  };
  const order: Target[] = ["payments", "link", "link, limit off", "many links"];

  const warmup = Math.min(3, seconds);
  say(`links: warm-up, ${warmup} s at concurrency 8 per target`);
  for (const t of order) await cannon(targets[t], 8, warmup);
  const hotBefore = await paymentsOnLinks(s, [hot]);

  const c32: Array<Record<Target, Run>> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const runs = {} as Record<Target, Run>;
    for (const t of order) {
      say(`links: round ${round}/${ROUNDS}, ${t}, ${seconds} s at concurrency 32`);
      const r = await sampleWaits(s, cannon(targets[t], 32, seconds));
      say(`  ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx + errors ${r.bad}; active backends: ${topWaits(r)}`);
      runs[t] = r;
    }
    c32.push(runs);
  }
  const c1: Array<Partial<Record<Target, Run>>> = [];
  const serialTargets: Target[] = ["payments", "link", "link, limit off"];
  for (let round = 1; round <= ROUNDS; round++) {
    const runs: Partial<Record<Target, Run>> = {};
    for (const t of serialTargets) {
      say(`links: round ${round}/${ROUNDS}, ${t}, ${seconds / 2} s at concurrency 1`);
      const r = await serial(targets[t], seconds / 2);
      say(`  p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, non-2xx + errors ${r.bad}`);
      runs[t] = r;
    }
    c1.push(runs);
  }

  // Every 2xx on the hot link must be a payment created on it (not a replay, not lost).
  const hotOk = [...c32.map((r) => r.link.ok2xx + r["link, limit off"].ok2xx), ...c1.map((r) => r.link!.ok2xx + r["link, limit off"]!.ok2xx)].reduce(
    (a, b) => a + b,
    0,
  );
  const hotCreated = (await paymentsOnLinks(s, [hot])) - hotBefore;
  // Requests still in flight when a run's time ran out (warm-up included) answer uncounted.
  const cutOff = 2 * 8 + ROUNDS * 2 * (32 + 1);
  const sanity = `Hot link sanity check: ${hotOk} 2xx pays, ${hotCreated} payments created on the link`;
  say(sanity);
  if (hotCreated < hotOk || hotCreated > hotOk + cutOff) throw new Error(`${sanity}: every 2xx pay should have created exactly one payment`);
  const bad = [...c32.flatMap((r) => Object.values(r)), ...c1.flatMap((r) => Object.values(r))].reduce((n, r) => n + r.bad, 0);

  const lines: string[] = [];
  lines.push(
    `Payment links (test/bench/link-pay.ts): POST /v1/payment_links/{id}/pay against POST /v1/payments on the same facade and core, alternately, ${seconds} s per run at concurrency 32, ${ROUNDS} rounds; the core at LINK_RATE_LIMIT=${LINK_BENCH_ENV.LINK_RATE_LIMIT} (raised out of the way, still counted) except "limit off" (a second core + facade on the same database with LINK_RATE_LIMIT=off); every pay from its own client IP (X-Forwarded-For, TRUST_PROXY=true); "one link" = every pay on the same link, "${MANY_LINKS} links" = round robin:`,
  );
  lines.push("");
  lines.push(
    "| Round | POST /v1/payments req/s | p50 | p99 | One link req/s | p50 | p99 | One link, limit off req/s | p50 | p99 | 64 links req/s | p50 | p99 | One link / payments: throughput | p99 |",
  );
  lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const cells = (r: Run) => `${r.rps.toFixed(0)} | ${r.p50} | ${r.p99}`;
  c32.forEach((r, i) => {
    lines.push(
      `| ${i + 1} | ${cells(r.payments)} | ${cells(r.link)} | ${cells(r["link, limit off"])} | ${cells(r["many links"])} | ${(r.link.rps / r.payments.rps).toFixed(2)}× | ${(r.link.p99 / r.payments.p99).toFixed(2)}× |`,
    );
  });
  const m = (t: Target, f: (r: Run) => number) => median(c32.map((r) => f(r[t])));
  const medCells = (t: Target) => `${m(t, (r) => r.rps).toFixed(0)} | ${m(t, (r) => r.p50)} | ${m(t, (r) => r.p99)}`;
  const rpsRatio = median(c32.map((r) => r.link.rps / r.payments.rps));
  const p99Ratio = median(c32.map((r) => r.link.p99 / r.payments.p99));
  lines.push(
    `| median | ${medCells("payments")} | ${medCells("link")} | ${medCells("link, limit off")} | ${medCells("many links")} | **${rpsRatio.toFixed(2)}×** | **${p99Ratio.toFixed(2)}×** |`,
  );
  lines.push("");
  const manyRps = median(c32.map((r) => r["many links"].rps / r.payments.rps));
  const manyP99 = median(c32.map((r) => r["many links"].p99 / r.payments.p99));
  const offRps = median(c32.map((r) => r.link.rps / r["link, limit off"].rps));
  lines.push(
    `One link at concurrency 32, median of ${ROUNDS} rounds: throughput ${rpsRatio.toFixed(2)}× POST /v1/payments' (target ≥ 0.90×: ${rpsRatio >= 0.9 ? "met" : "missed"}), p99 ${p99Ratio.toFixed(2)}× (target ≤ 1.20×: ${p99Ratio <= 1.2 ? "met" : "missed"}). ${MANY_LINKS} links: ${manyRps.toFixed(2)}× / ${manyP99.toFixed(2)}×. One link with the limit counted vs off: throughput ${offRps.toFixed(2)}×.`,
  );
  lines.push("");
  const p50Added32 = median(c32.map((r) => r.link.p50 - r["link, limit off"].p50));
  const s1 = (t: Target) => median(c1.map((r) => r[t]!.p50));
  const s199 = (t: Target) => median(c1.map((r) => r[t]!.p99));
  const p50Added1 = median(c1.map((r) => r.link!.p50 - r["link, limit off"]!.p50));
  lines.push(
    `Rate-limit check's added p50 (one link, limit raised − off, same database, median of per-round differences): ${p50Added1.toFixed(2)} ms at concurrency 1 (node:http loop: ${s1("link").toFixed(2)} vs ${s1("link, limit off").toFixed(2)} ms; p99 ${s199("link").toFixed(2)} vs ${s199("link, limit off").toFixed(2)} ms; POST /v1/payments p50 ${s1("payments").toFixed(2)} ms), ${p50Added32.toFixed(1)} ms at concurrency 32 (autocannon).`,
  );
  lines.push("");
  lines.push(
    `Where this database's active backends waited during the last round (pg_stat_activity every 100 ms; share of active backends): ${order.map((t) => `${t}: ${topWaits(c32[c32.length - 1]![t])}`).join("; ")}.`,
  );
  lines.push("");
  lines.push(`${sanity}; non-2xx + errors over all link-section runs: ${bad}.`);
  lines.push("");
  return lines;
}

async function paymentsOnLinks(s: Stack, linkIds: string[]): Promise<number> {
  const r = await s.sql<{ n: string }>("SELECT count(*)::text AS n FROM payments WHERE link_id = ANY($1)", [linkIds]);
  return Number(r[0]?.n ?? 0);
}

if (isMain(import.meta)) {
  await runAlone(async () => {
    const { startStack } = await import("../support/stack.ts");
    const stack = await startStack({ logLevel: process.env.BENCH_LOG_LEVEL ?? "info", env: LINK_BENCH_ENV });
    try {
      return await benchLinkPay(stack, Number(process.env.BENCH_SECONDS ?? 10), say);
    } finally {
      await stack.stop();
    }
  });
}
