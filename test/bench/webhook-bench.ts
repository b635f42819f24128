// The webhook part of `npm run bench` (issue 8 "Performance"); also runs alone:
// `node test/bench/webhook-bench.ts` (provisions like bench.ts, or uses DATABASE_URL + NATS_URL).
// A stack with the dispatcher, two loopback receivers subscribed to every event, and:
//   1. throughput: N payments captured at once — deliveries per second from the first state change
//      to the last arrival at the receivers (2 per event). The N payments are created and authorized
//      (no event) before the clock starts; in the window only their captures run. The default source
//      ("batch") captures them from this process through the core's own domain code on the stack's
//      database: `transitionPayment` with the `succeed` simulation step, BENCH_WEBHOOK_BATCH (50)
//      payments per transaction, BENCH_WEBHOOK_SOURCE_CONCURRENCY (4) transactions at once; each
//      transaction records its payment.succeeded events in the outbox and NOTIFYs at commit exactly
//      as the core's SimulatePayment does, so the core's relay and the dispatcher see real events.
//      BENCH_WEBHOOK_SOURCE=grpc captures through gRPC SimulatePayment instead (one payment per
//      call, concurrency 32), which on a 2-core machine tops out below 500 events/s;
//   2. lag at a steady 200 events/s for BENCH_WEBHOOK_SECONDS: p50/p99 from the event's commit
//      (its created_at, stamped just before the commit, so the lag is if anything overstated) to
//      its arrival at each receiver;
//   3. the same with a third endpoint whose receiver never answers (attempts hang until the
//      15 s deadline): the healthy receivers' lag p99 and its ratio to run 2's, in the same run.
// For runs 1 and 2 it also prints the CPU milliseconds per delivery of each process (utime + stime
// from /proc/<pid>/stat: the dispatcher, the core, every PostgreSQL process of the cluster, the
// nats-server; the facade is idle) and the core gRPC calls per delivery, from the core's metrics.
// Every setting is the product's default (WEBHOOK_TIMEOUT 15 s, OUTBOX_RELAY_INTERVAL 250 ms, …)
// unless BENCH_WEBHOOK_ENV adds some ("KEY=value,KEY=value").
import { isMain, runAlone, say } from "./run-alone.ts";
import { cpuOf, cpuSpent, natsServerPids } from "./process-cpu.ts";
import * as fs from "node:fs";
import { modeCodec } from "../../proto/enums.ts";
import { loadConfig } from "../../core/src/config.ts";
import { openOrm } from "../../core/src/db/orm.ts";
import type { CoreDeps } from "../../core/src/domain/deps.ts";
import type { RaisedEvent } from "../../core/src/domain/outbox.ts";
import { transitionPayment } from "../../core/src/domain/payment-transitions.ts";
import { SIMULATION_STEPS } from "../../core/src/domain/simulate-payment.ts";
import { inTransaction } from "../../core/src/domain/unit-of-work.ts";
import { createLogger } from "../../proto/runtime/logger.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { WebhookReceiver } from "../support/webhook-receiver.ts";

const RATE = 200;
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 20);
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 3000);
const SOURCE = process.env.BENCH_WEBHOOK_SOURCE ?? "batch";
const BATCH = Number(process.env.BENCH_WEBHOOK_BATCH ?? 50);
const SOURCE_CONCURRENCY = Number(process.env.BENCH_WEBHOOK_SOURCE_CONCURRENCY ?? 4);
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_WEBHOOK_ENV ?? "")
    .split(",")
    .filter(Boolean)
    .map((kv) => kv.split("=", 2) as [string, string]),
);

type Process = "dispatcher" | "core" | "postgres" | "nats-server";
const PROCESSES: readonly Process[] = ["dispatcher", "core", "postgres", "nats-server"];

/** CPU ms per pid of every process the pipeline runs on (PostgreSQL: every backend and background process of the cluster's database). */
async function cpuSnapshot(stack: Stack): Promise<Record<Process, Map<number, number>>> {
  const backends = (await stack.sql<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() or datname is null")).map(
    (r) => r.pid,
  );
  return cpuOf({
    dispatcher: [stack.pids().dispatcher!],
    core: [stack.pids().core!],
    postgres: backends,
    "nats-server": natsServerPids(),
  });
}

/** CPU ms each process spent between two snapshots (a PostgreSQL backend started in between counts from zero). */
async function cpuSince(stack: Stack, before: Record<Process, Map<number, number>>): Promise<Record<Process, number>> {
  return cpuSpent(before, await cpuSnapshot(stack));
}

/** Count and total seconds of each core gRPC method so far (paytami_core_grpc_call_seconds). */
async function grpcCalls(stack: Stack): Promise<Map<string, { sum: number; count: number }>> {
  const text = await (await fetch(`${stack.coreHttpUrl}/metrics`, { headers: { authorization: `Bearer ${stack.internalToken}` } })).text();
  const stat = new Map<string, { sum: number; count: number }>();
  for (const m of text.matchAll(/^paytami_core_grpc_call_seconds_(sum|count)\{([^}]*)\} ([\d.e+-]+)$/gm)) {
    const method = /method="([^"]+)"/.exec(m[2]!)![1]!;
    const entry = stat.get(method) ?? { sum: 0, count: 0 };
    entry[m[1] as "sum" | "count"] += Number(m[3]);
    stat.set(method, entry);
  }
  return stat;
}

/** The delivery pipeline's calls to the core between two grpcCalls() answers, per delivery. */
function callsPerDelivery(before: Map<string, { count: number }>, after: Map<string, { count: number }>, deliveries: number): string {
  return ["ClaimDueDeliveries", "RecordAttempts", "RecordDeliveries", "ReleaseDeliveries"]
    .map((method) => `${method} ${(((after.get(method)?.count ?? 0) - (before.get(method)?.count ?? 0)) / deliveries).toFixed(3)}`)
    .join(", ");
}

/** One table row: CPU ms per delivery of each process, and their sum. */
function cpuRow(label: string, spent: Record<Process, number>, deliveries: number): string {
  const per = PROCESSES.map((name) => spent[name] / deliveries);
  return `| ${label} | ${per.map((ms) => ms.toFixed(3)).join(" | ")} | ${per.reduce((a, b) => a + b, 0).toFixed(3)} |`;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);

/** `n` created (payable) test payments of `key`, made over REST with concurrency 16. */
async function createPayments(stack: Stack, key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const body = { amount: "12345", currency: "GTQ", method_type: "card", success_url: "https://shop.example.com/ok", cancel_url: "https://shop.example.com/no" };
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        next++;
        const res = await stack.http.createPayment(key, body);
        if (res.status !== 201) throw new Error(`payment creation answered ${res.status}`);
        ids.push((res.json as { id: string }).id);
      }
    }),
  );
  return ids;
}

/** Runs `work` on each item of `items`, `concurrency` at a time. */
async function each<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * The core's domain on the stack's database, opened in this process for the batch source: the same
 * config values the captures read (PUBLIC_BASE_URL, for the checkout_url in the event's payment).
 */
async function openDomain(stack: Stack): Promise<{ deps: CoreDeps; close(): Promise<void> }> {
  const [{ name }] = (await stack.sql<{ name: string }>("select current_database() as name")) as [{ name: string }];
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const orm = await openOrm({ databaseUrl: url.toString(), poolSize: SOURCE_CONCURRENCY });
  const config = loadConfig({ DATABASE_URL: url.toString(), PUBLIC_BASE_URL: stack.publicBaseUrl, EMBED_TOKEN_SECRET: "bench-source-unused-0123456789abcdef" });
  return { deps: { orm, config, log: createLogger("bench-source"), now: () => new Date() }, close: () => orm.close() };
}

/** Captures `ids` in one transaction, as SimulatePayment `succeed` does for each, events recorded at commit. */
function captureBatch(deps: CoreDeps, ids: readonly string[]): Promise<void> {
  return inTransaction(deps, async (tx) => {
    const events: RaisedEvent[] = [];
    for (const id of ids) events.push(...(await transitionPayment(deps, tx, id, SIMULATION_STEPS.succeed)).events);
    if (events.length !== ids.length) throw new Error(`expected ${ids.length} events from the captures, got ${events.length}`);
    return { value: undefined, events };
  });
}

interface Arrival {
  eventId: string;
  lagMs: number;
  at: number;
}

function arrivals(receiver: WebhookReceiver, from: number): Arrival[] {
  return receiver.requests.slice(from).map((r) => {
    const envelope = JSON.parse(r.body.toString()) as { id: string; created_at: string };
    return { eventId: envelope.id, lagMs: r.at - Date.parse(envelope.created_at), at: r.at };
  });
}

async function waitForCount(receivers: WebhookReceiver[], counts: number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receivers.some((r, i) => r.requests.length < counts[i]!)) {
    if (Date.now() > deadline)
      throw new Error(`deliveries did not all arrive within ${timeoutMs} ms (${receivers.map((r, i) => `${r.requests.length}/${counts[i]}`).join(", ")})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Captures `ids` at `rate` per second (open loop: one call every 1/rate s, not waiting for answers). */
async function steady(stack: Stack, ids: string[], rate: number): Promise<void> {
  const start = performance.now();
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < ids.length; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    calls.push(stack.core.admin.simulatePayment({ payment_id: ids[i]!, step: "succeed" }));
  }
  await Promise.all(calls);
}

export async function webhookBench(): Promise<string> {
  const stack = await startStack({ dispatcher: true, logLevel: process.env.BENCH_LOG_LEVEL ?? "info", env: EXTRA_ENV });
  const healthy = [await new WebhookReceiver(() => ({ status: 200 })).start(), await new WebhookReceiver(() => ({ status: 200 })).start()];
  const hanging = await new WebhookReceiver(() => "hang").start();
  try {
    const merchant = await stack.admin.createMerchant({ name: "Bench Webhooks" });
    const endpoint = (url: string) =>
      stack.core.webhooks.createEndpoint({ merchant_id: merchant.merchantId, mode: modeCodec.fromWire("test"), url, enabled_events: [] });
    for (const r of healthy) await endpoint(r.url);
    const perPhase = RATE * SECONDS;
    say(`creating ${BURST + 2 * perPhase} payments`);
    const ids = await createPayments(stack, merchant.testApiKey, BURST + 2 * perPhase);
    const lines: string[] = [];

    // 1. Throughput. Authorizing raises no event, so nothing is in the pipeline when the clock starts.
    const burst = ids.slice(0, BURST);
    say(`throughput: authorizing ${BURST} payments (before the clock)`);
    await each(burst, 32, (id) => stack.core.admin.simulatePayment({ payment_id: id, step: "authorize" }));
    const domain = SOURCE === "batch" ? await openDomain(stack) : undefined;
    const chunks: string[][] = [];
    for (let i = 0; i < burst.length; i += BATCH) chunks.push(burst.slice(i, i + BATCH));
    say(
      SOURCE === "batch"
        ? `throughput: capturing ${BURST} payments, ${BATCH} per transaction, ${SOURCE_CONCURRENCY} transactions at once`
        : `throughput: capturing ${BURST} payments through gRPC SimulatePayment at concurrency 32`,
    );
    const before = healthy.map((r) => r.requests.length);
    const burstCpu = await cpuSnapshot(stack);
    const burstCalls = await grpcCalls(stack);
    const t0 = Date.now();
    if (domain) await each(chunks, SOURCE_CONCURRENCY, (chunk) => captureBatch(domain.deps, chunk));
    else await each(burst, 32, (id) => stack.core.admin.simulatePayment({ payment_id: id, step: "succeed" }));
    const capturedMs = Date.now() - t0;
    await domain?.close();
    await waitForCount(
      healthy,
      before.map((n) => n + BURST),
      300_000,
    );
    const burstSpent = await cpuSince(stack, burstCpu);
    const burstCallsPer = callsPerDelivery(burstCalls, await grpcCalls(stack), 2 * BURST);
    // Every burst event arrived exactly once at each healthy receiver (a redelivery would be counted twice).
    for (const [i, r] of healthy.entries()) {
      const got = arrivals(r, before[i]!);
      const distinct = new Set(got.map((a) => a.eventId)).size;
      if (got.length !== BURST || distinct !== BURST)
        throw new Error(`receiver ${i}: ${got.length} deliveries of ${distinct} distinct events, expected ${BURST}`);
    }
    const lastArrival = Math.max(...healthy.map((r) => r.requests.at(-1)!.at));
    const throughput = (2 * BURST) / ((lastArrival - t0) / 1000);
    // The pipeline alone, once the source is done and no longer shares the CPU: arrivals after the last commit.
    const sourceDone = t0 + capturedMs;
    const afterSource = healthy.reduce((sum, r, i) => sum + arrivals(r, before[i]!).filter((a) => a.at > sourceDone).length, 0);
    const drainRate = afterSource / (Math.max(1, lastArrival - sourceDone) / 1000);

    // 2. and 3. Lag at a steady rate, without and with a hanging endpoint.
    const lagRun = async (label: string, batch: string[]) => {
      const from = healthy.map((r) => r.requests.length);
      say(`lag: ${label}: ${RATE} events/s for ${SECONDS} s`);
      const cpu = await cpuSnapshot(stack);
      const calls = await grpcCalls(stack);
      await steady(stack, batch, RATE);
      await waitForCount(
        healthy,
        from.map((n) => n + batch.length),
        120_000,
      );
      const spent = await cpuSince(stack, cpu);
      const callsPer = callsPerDelivery(calls, await grpcCalls(stack), 2 * batch.length);
      const lags = healthy
        .flatMap((r, i) => arrivals(r, from[i]!))
        .map((a) => a.lagMs)
        .sort((a, b) => a - b);
      return { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1)!, n: lags.length, spent, callsPer };
    };
    const calm = await lagRun("two healthy endpoints", ids.slice(BURST, BURST + perPhase));
    await endpoint(hanging.url);
    const withHang = await lagRun("two healthy endpoints and one hanging", ids.slice(BURST + perPhase));
    const ratio = withHang.p99 / calm.p99;
    // A healthy receiver never refuses: every failed attempt to one is the pipeline's (a kept-alive
    // connection reused as the receiver closed it was one, delaying its delivery by the retry's 5 s).
    const healthyUrls = healthy.map((r) => r.url);
    const [{ failed }] = (await stack.sql<{ failed: number }>(
      "select count(*)::int as failed from webhook_attempts a join webhook_endpoints e on e.id = a.endpoint_id where e.url = any($1) and not a.succeeded",
      [healthyUrls],
    )) as [{ failed: number }];

    lines.push(
      `Webhook delivery (test/bench/webhook-bench.ts; dispatcher defaults: DISPATCHER_CONCURRENCY 256, WEBHOOK_ENDPOINT_CONCURRENCY 16, WEBHOOK_TIMEOUT 15s; OUTBOX_RELAY_INTERVAL 250ms${Object.keys(EXTRA_ENV).length ? `; with ${JSON.stringify(EXTRA_ENV)}` : ""}):`,
    );
    lines.push("");
    lines.push("| Measure | Result | Target | |");
    lines.push("|---|---:|---:|---|");
    lines.push(
      `| Deliveries/s, ${BURST} events captured ${SOURCE === "batch" ? `${BATCH} per transaction, ${SOURCE_CONCURRENCY} at once` : "via gRPC at c=32"} (source ${(BURST / (capturedMs / 1000)).toFixed(0)} events/s, ${capturedMs} ms) → 2 endpoints, first change to last arrival | ${throughput.toFixed(0)} | ≥ 1000 | ${throughput >= 1000 ? "met" : "missed"} |`,
    );
    lines.push(
      `| Of those, delivered after the source's last commit: ${afterSource} in ${lastArrival - sourceDone} ms (the pipeline alone) | ${drainRate.toFixed(0)}/s | | |`,
    );
    lines.push(
      `| Lag commit → arrival at ${RATE} events/s, 2 endpoints (${calm.n} deliveries): p50 / p99 / max (ms) | ${calm.p50} / ${calm.p99} / ${calm.max} | p99 ≤ 250 | ${calm.p99 <= 250 ? "met" : "missed"} |`,
    );
    lines.push(
      `| Same with a third endpoint hanging (${withHang.n} healthy deliveries): p50 / p99 / max (ms) | ${withHang.p50} / ${withHang.p99} / ${withHang.max} | | |`,
    );
    lines.push(`| Healthy p99 with the hanging endpoint / without | ${ratio.toFixed(2)}× | ≤ 1.5× | ${ratio <= 1.5 ? "met" : "missed"} |`);
    lines.push("");
    lines.push(`The hanging endpoint had at most ${hanging.maxHanging} attempts open at once. Failed attempts to the healthy endpoints: ${failed}.`);
    lines.push("");
    lines.push(
      `CPU ms per delivery (/proc/<pid>/stat; the burst's source runs in the bench process, but its transactions' PostgreSQL time counts under postgres; the lag run's source is gRPC SimulatePayment, counted under core):`,
    );
    lines.push("");
    lines.push(`| Phase | ${PROCESSES.join(" | ")} | total |`, `|---|${PROCESSES.map(() => "---:").join("|")}|---:|`);
    lines.push(cpuRow(`burst, ${2 * BURST} deliveries, first change to last arrival`, burstSpent, 2 * BURST));
    lines.push(cpuRow(`${RATE} events/s, ${calm.n} deliveries`, calm.spent, calm.n));
    lines.push("");
    lines.push(`Core calls per delivery: burst: ${burstCallsPer}; at ${RATE} events/s: ${calm.callsPer}.`);
    if (process.env.BENCH_WEBHOOK_METRICS === "1") {
      // Where the core's time goes: count and mean of each gRPC method (paytami_core_grpc_call_seconds).
      const stat = await grpcCalls(stack);
      lines.push("", "| gRPC method | calls | mean ms |", "|---|---:|---:|");
      for (const [method, { sum, count }] of stat) lines.push(`| ${method} | ${count} | ${((sum / count) * 1000).toFixed(1)} |`);
    }
    return lines.join("\n");
  } finally {
    for (const r of [...healthy, hanging]) await r.stop();
    await stack.stop();
    fs.rmSync(stack.logDir, { recursive: true, force: true });
  }
}

// Run alone.
if (isMain(import.meta)) await runAlone(webhookBench);
