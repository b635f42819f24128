// One measured run of POST /v1/payments (a fresh Idempotency-Key per request) at a given
// concurrency, shared by the comparisons that alternate two shapes in the same bench run
// (tracing-bench.ts, cluster-bench.ts).
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import type { Stack } from "../support/stack.ts";
import { cpuMs } from "./process-cpu.ts";

export interface CreateRun {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  bad: number;
}

export async function createRun(baseUrl: string, apiKey: string, seconds: number, connections = 32): Promise<CreateRun> {
  const body = JSON.stringify({
    amount: "10000",
    currency: "GTQ",
    method_type: "card",
    success_url: "https://shop.example.com/thanks",
    cancel_url: "https://shop.example.com/cart",
  });
  const result = await autocannon({
    url: `${baseUrl}/v1/payments`,
    connections,
    duration: seconds,
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body,
    requests: [
      {
        setupRequest: (r: any) => {
          r.headers = { ...r.headers, "idempotency-key": randomUUID() };
          return r;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result["2xx"],
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

/** A run on a stack, with the CPU ms its facade and its core (all their threads) spent per created payment. */
export interface StackRun extends CreateRun {
  facadeCpuMs: number;
  coreCpuMs: number;
}

/** createRun on `stack`, reading its facade's and core's CPU (utime + stime, /proc) before and after. */
export async function stackCreateRun(stack: Stack, apiKey: string, seconds: number, connections: number): Promise<StackRun> {
  const { facade, core } = stack.pids();
  const cpuNow = (pid: number | undefined) => (pid ? (cpuMs(pid) ?? NaN) : NaN);
  const before = { facade: cpuNow(facade), core: cpuNow(core) };
  const run = await createRun(stack.baseUrl, apiKey, seconds, connections);
  const perRequest = (pid: number | undefined, from: number) => (cpuNow(pid) - from) / Math.max(1, run.ok);
  return { ...run, facadeCpuMs: perRequest(facade, before.facade), coreCpuMs: perRequest(core, before.core) };
}

/** Facade + core CPU ms per created payment. */
export const stackCpu = (run: StackRun) => run.facadeCpuMs + run.coreCpuMs;

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
