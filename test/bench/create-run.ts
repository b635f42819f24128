// One closed-loop run of POST /v1/payments (autocannon, a fresh Idempotency-Key per request), as the
// bench parts that compare a setting on against off (tracing-bench.ts, request-logs-bench.ts) run it.
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import type { Stack } from "../support/stack.ts";

export interface Run {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  bad: number;
}

export async function createRun(stack: Stack, apiKey: string, concurrency: number, seconds: number): Promise<Run> {
  const body = JSON.stringify({
    amount: "10000",
    currency: "GTQ",
    method_type: "card",
    success_url: "https://shop.example.com/thanks",
    cancel_url: "https://shop.example.com/cart",
  });
  const result = await autocannon({
    url: `${stack.baseUrl}/v1/payments`,
    connections: concurrency,
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

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
