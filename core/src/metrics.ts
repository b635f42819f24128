import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const grpcCallSeconds = new Histogram({
  name: "paytami_core_grpc_call_seconds",
  help: "Duration of gRPC calls served by the core, by method and catalog code.",
  labelNames: ["method", "code"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

export const jobRuns = new Counter({
  name: "paytami_core_job_items_total",
  help: "Items handled by background jobs.",
  labelNames: ["job", "outcome"] as const,
  registers: [registry],
});

export const processorCalls = new Counter({
  name: "paytami_core_processor_calls_total",
  help: "Calls to the card processor and the payout bank, by mode, call and how they ended (an answer, error, withdrawn or unknown at the deadline).",
  labelNames: ["mode", "call", "ended"] as const,
  registers: [registry],
});
