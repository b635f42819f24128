// The request-log part of `npm run bench` (issue 17, "Performance"): POST /v1/payments at
// concurrency 32 on a stack recording every request (facade → NATS → core) against an identical
// stack with REQUEST_LOGS=off, and a third whose nats-server is stopped (the facade records and drops),
// run alternately off, on, down, off, on, down… in the same run. Targets: on ≥ 0.97× off in
// requests/s and on ≤ 1.1× off in p99 (medians of the rounds' ratios); down should match off. The
// rows the "on" stack wrote per request are reported, so a run that logged nothing cannot pass.
//
// Then on and off side by side (side-by-side.ts: both loaded at once, the same neighbours for both).
//
// Tunables: BENCH_SECONDS (run length, shared with bench.ts), BENCH_REQUEST_LOG_ROUNDS (default 3),
// BENCH_SIDE_BY_SIDE_ROUNDS (default 3, shared with tracing-bench.ts; 0 skips that part);
// BENCH_REQUEST_LOGS=0 skips it. Alone: `node test/bench/request-logs-bench.ts` (run-alone.ts).
import * as fs from "node:fs";
import * as os from "node:os";
import { privateNats } from "../support/private-nats.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createRun, median, type CreateRun } from "./create-run.ts";
import { childPids, cpuMs, cpuOf, cpuSpent, memoryKb, natsServerPids, parentPid, threadCpuMs } from "./process-cpu.ts";
import { isMain, runAlone, say } from "./run-alone.ts";
import { SIDE_BY_SIDE_ROUNDS, sideBySide, sideBySideReport } from "./side-by-side.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_REQUEST_LOG_ROUNDS ?? 3);
const CONCURRENCY = 32;
const THROUGHPUT_TARGET = 0.97;
const P99_TARGET = 1.1;

const VARIANTS = ["off", "on", "down"] as const;
type Variant = (typeof VARIANTS)[number];

/** Where the CPU goes: the stack's facade and core, its PostgreSQL cluster (every backend and background process), its nats-server. */
const GROUPS = ["facade", "core", "postgres", "nats"] as const;

async function processGroups(stack: Stack): Promise<Record<(typeof GROUPS)[number], number[]>> {
  const backend = (await stack.sql<{ pid: number }>("select pg_backend_pid() as pid"))[0]!.pid;
  const postmaster = parentPid(backend);
  return {
    facade: [stack.pids().facade!],
    core: [stack.pids().core!],
    postgres: postmaster === undefined ? [] : [postmaster, ...childPids(postmaster)],
    nats: natsServerPids(),
  };
}

/**
 * The parts of the logging pipeline that only logging runs, each a thread or process of its own:
 * the facade's publisher thread, the core's writer thread and the writer's PostgreSQL backend.
 * Their CPU is logging's own cost, free of the noise of the whole stack's figures.
 */
const LOG_PARTS = ["publisher thread", "writer thread", "writer's backend"] as const;

async function logPartsCpu(stack: Stack): Promise<Record<(typeof LOG_PARTS)[number], number>> {
  const backends = await stack.sql<{ pid: number }>("select pid from pg_stat_activity where application_name = 'paytami-core-request-logs'");
  return {
    "publisher thread": threadCpuMs(stack.pids().facade!, "request-log-pub"),
    "writer thread": threadCpuMs(stack.pids().core!, "request-log-wri"),
    "writer's backend": backends.reduce((sum, { pid }) => sum + (cpuMs(pid) ?? 0), 0),
  };
}

/** A run: CPU per answered request of each part of the stack, and the logging threads' CPU in all (summed over rounds, not per round: a few 10 ms ticks each). */
type Measured = CreateRun & { cpu: Record<string, number>; partsMs: Record<string, number> };

/** A run of POST /v1/payments with the CPU each part of the stack (and of the logging pipeline) spent. */
async function measuredRun(stack: Stack, key: string): Promise<Measured> {
  const before = cpuOf(await processGroups(stack));
  const partsBefore = await logPartsCpu(stack);
  const run = await createRun(stack.baseUrl, key, SECONDS, CONCURRENCY);
  // The writer's last batches land within a flush (250 ms) and the INSERT after it.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const spent = cpuSpent(before, cpuOf(await processGroups(stack)));
  const partsAfter = await logPartsCpu(stack);
  const cpu: Record<string, number> = {};
  for (const g of GROUPS) cpu[g] = (spent[g] ?? 0) / Math.max(1, run.ok);
  const partsMs = Object.fromEntries(LOG_PARTS.map((part) => [part, Math.max(0, partsAfter[part] - partsBefore[part])]));
  return { ...run, cpu, partsMs };
}

async function logRows(stack: Stack): Promise<number> {
  return Number((await stack.sql<{ n: string }>("select count(*)::text as n from request_logs"))[0]!.n);
}

/** Runs the comparison and returns its report lines (markdown). */
export async function benchRequestLogs(): Promise<string[]> {
  const logLevel = process.env.BENCH_LOG_LEVEL ?? "info";
  // "down" has a nats-server of its own, stopped once its processes are up (the core's health needs NATS to start).
  const downNats = await privateNats();
  const stacks: Partial<Record<Variant, Stack>> = {};
  try {
    stacks.off = await startStack({ logLevel, env: { REQUEST_LOGS: "off" } });
    stacks.on = await startStack({ logLevel });
    stacks.down = await startStack({ logLevel, env: { NATS_URL: downNats.url } });
    await downNats.stop();
    return await compare(stacks as Record<Variant, Stack>);
  } finally {
    for (const v of VARIANTS) {
      await stacks[v]?.stop().catch(() => undefined);
      if (stacks[v]) fs.rmSync(stacks[v].logDir, { recursive: true, force: true });
    }
    await downNats.dispose();
  }
}

/** The alternating rounds on the three stacks, and their report. */
async function compare(stacks: Record<Variant, Stack>): Promise<string[]> {
  const keys = {} as Record<Variant, string>;
  for (const v of VARIANTS) keys[v] = (await stacks[v].admin.createMerchant({ name: `Bench request logs ${v}` })).testApiKey;
  say(`request logs: warm-up (${Math.min(3, SECONDS)} s each)`);
  for (const v of VARIANTS) await createRun(stacks[v].baseUrl, keys[v], Math.min(3, SECONDS), CONCURRENCY);
  const rounds: Array<Record<Variant, Measured> & { loggedPerRequest: number; load: number }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const runs = {} as Record<Variant, Measured>;
    let loggedPerRequest = 0;
    for (const v of VARIANTS) {
      const before = v === "on" ? await logRows(stacks.on) : 0;
      runs[v] = await measuredRun(stacks[v], keys[v]);
      if (v === "on") loggedPerRequest = ((await logRows(stacks.on)) - before) / Math.max(1, runs.on.ok);
      if (runs[v].bad > 0) throw new Error(`request-log bench: ${runs[v].bad} failed requests (${v})`);
    }
    const load = os.loadavg()[0]!;
    rounds.push({ ...runs, loggedPerRequest, load });
    say(
      `request logs round ${round}: off ${runs.off.rps.toFixed(0)} req/s, on ${runs.on.rps.toFixed(0)} (${(runs.on.rps / runs.off.rps).toFixed(2)}×), down ${runs.down.rps.toFixed(0)} (${(runs.down.rps / runs.off.rps).toFixed(2)}×), ${loggedPerRequest.toFixed(2)} rows per request, load ${load.toFixed(2)}`,
    );
  }
  const ratio = median(rounds.map((r) => r.on.rps / r.off.rps));
  const p99Ratio = median(rounds.map((r) => r.on.p99 / r.off.p99));
  const downRatio = median(rounds.map((r) => r.down.rps / r.off.rps));
  const downP99 = median(rounds.map((r) => r.down.p99 / r.off.p99));
  const lines = [
    `#### Request logs on vs off (POST /v1/payments, concurrency ${CONCURRENCY}, ${ROUNDS} alternating rounds of ${SECONDS} s; test/bench/request-logs-bench.ts)`,
    "",
    "| Round | off req/s | on req/s | down req/s | on/off | down/off | off p99 ms | on p99 ms | down p99 ms | rows logged per request | load (1 min) |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rounds.map(
      (r, i) =>
        `| ${i + 1} | ${r.off.rps.toFixed(0)} | ${r.on.rps.toFixed(0)} | ${r.down.rps.toFixed(0)} | ${(r.on.rps / r.off.rps).toFixed(2)}× | ${(r.down.rps / r.off.rps).toFixed(2)}× | ${r.off.p99} | ${r.on.p99} | ${r.down.p99} | ${r.loggedPerRequest.toFixed(2)} | ${r.load.toFixed(2)} |`,
    ),
    "",
    `Logging on / off (medians): throughput ${ratio.toFixed(2)}× (target ≥ ${THROUGHPUT_TARGET}×: ${ratio >= THROUGHPUT_TARGET ? "met" : "NOT met"}), p99 ${p99Ratio.toFixed(2)}× (target ≤ ${P99_TARGET}×: ${p99Ratio <= P99_TARGET ? "met" : "NOT met"}). NATS unreachable / off: throughput ${downRatio.toFixed(2)}×, p99 ${downP99.toFixed(2)}×. ${os.cpus().length} CPUs.`,
    "",
    "CPU per answered request (ms, medians of the rounds; the PostgreSQL and NATS of `down` are shared with `off`):",
    "",
    `| Variant | ${GROUPS.join(" | ")} | total |`,
    `|---|${GROUPS.map(() => "---:").join("|")}|---:|`,
    ...VARIANTS.map((v) => {
      const per = GROUPS.map((g) => median(rounds.map((r) => r[v].cpu[g] ?? 0)));
      return `| ${v} | ${per.map((ms) => ms.toFixed(3)).join(" | ")} | ${per.reduce((a, b) => a + b, 0).toFixed(3)} |`;
    }),
    "",
    // Summed over the rounds, not medians: a thread's CPU per round is a few of /proc's 10 ms ticks.
    "Logging's own threads (on; ms of CPU per answered request over all rounds; what logging adds to the facade's and core's request threads is not in it):",
    "",
    `| ${LOG_PARTS.join(" | ")} | total |`,
    `|${LOG_PARTS.map(() => "---:").join("|")}|---:|`,
    (() => {
      const answered = rounds.reduce((sum, r) => sum + r.on.ok, 0);
      const per = LOG_PARTS.map((part) => rounds.reduce((sum, r) => sum + (r.on.partsMs[part] ?? 0), 0) / Math.max(1, answered));
      return `| ${per.map((ms) => ms.toFixed(4)).join(" | ")} | ${per.reduce((a, b) => a + b, 0).toFixed(4)} |`;
    })(),
    "",
  ];
  const peak = (v: Variant, name: "facade" | "core") => {
    const kb = memoryKb(stacks[v].pids()[name]!)?.hwm;
    return kb === undefined ? "–" : `${(kb / 1024).toFixed(0)} MB`;
  };
  lines.push(
    "Peak resident memory (VmHWM) over the whole run (logging on adds the publisher's and the writer's threads):",
    "",
    "| Variant | facade | core |",
    "|---|---:|---:|",
    ...VARIANTS.map((v) => `| ${v} | ${peak(v, "facade")} | ${peak(v, "core")} |`),
    "",
  );
  if (rounds.some((r) => r.loggedPerRequest < 0.99))
    lines.push("Warning: fewer rows than requests were logged with logging on: the comparison is not of full logging.", "");
  if (SIDE_BY_SIDE_ROUNDS > 0) {
    say(`request logs: on and off side by side (${SIDE_BY_SIDE_ROUNDS} rounds)`);
    const side = await sideBySide({ stack: stacks.off, apiKey: keys.off }, { stack: stacks.on, apiKey: keys.on }, SECONDS, SIDE_BY_SIDE_ROUNDS, CONCURRENCY);
    lines.push(
      ...sideBySideReport(
        ["off", "on"],
        side,
        CONCURRENCY,
        SECONDS,
        "Both stacks use the one PostgreSQL cluster and nats-server of the run, so the writer's database work slows both sides alike: this ratio leaves it out, and understates what logging costs.",
      ),
    );
  }
  return lines;
}

// Run alone.
if (isMain(import.meta)) await runAlone(benchRequestLogs);
