import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { poolWatch } from "./db/pool-watch.ts";
import { batchFailures, batchSizes } from "./domain/create-charge/batch.ts";
import { admitBatchFailures, admitBatchSizes } from "./domain/link-admit-batch.ts";
import { refundBatchFailures, refundBatchSizes } from "./domain/refunds/batch.ts";

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
  labelNames: ["job_name", "outcome"] as const,
  registers: [registry],
});

export const jobFailedRuns = new Counter({
  name: "paytami_core_job_failed_runs_total",
  help: "Background job runs that failed (retried at the job's next tick); the log says so once per JOB_FAILURE_LOG_INTERVAL while a job keeps failing.",
  labelNames: ["job_name"] as const,
  registers: [registry],
});

export const requestLogThreadRestarts = new Counter({
  name: "paytami_core_request_log_thread_restarts_total",
  help: "Times the request-log writer thread ended unasked (out of its heap, say) and a new one was started; the batches it held were lost.",
  registers: [registry],
});

export const requestLogRecords = new Counter({
  name: "paytami_core_request_log_records_total",
  help: "Request-log records received from the facades: written, unknown_key (no such API key), failed (the insert failed), malformed (batches refused).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const processorCalls = new Counter({
  name: "paytami_core_processor_calls_total",
  help: "Calls to the card processor and the payout bank, by mode, call and how they ended (an answer, error, withdrawn or unknown at the deadline).",
  labelNames: ["mode", "call", "ended"] as const,
  registers: [registry],
});

/** A group commit's gauges (domain/group-commit.ts): batches run since start by size (counts only grow), and batches that failed. */
function groupCommitGauges(name: string, sizes: number[], failures: { count: number }, help: { batches: string; failures: string }) {
  return [
    new Gauge({
      name: `paytami_core_${name}_batches`,
      help: help.batches,
      labelNames: ["size"] as const,
      registers: [registry],
      collect() {
        sizes.forEach((count, size) => {
          if (count) this.set({ size: String(size) }, count);
        });
      },
    }),
    new Gauge({
      name: `paytami_core_${name}_batch_failures`,
      help: help.failures,
      registers: [registry],
      collect() {
        this.set(failures.count);
      },
    }),
  ] as const;
}

export const [createBatches, createBatchFailures] = groupCommitGauges("create", batchSizes, batchFailures, {
  batches: "Creation statements run since start, by how many requests each carried (group commit; counts only grow).",
  failures: "Group-commit statements that failed and whose requests then ran one statement each (a deadlock between cores; otherwise a bug).",
});

export const [refundBatches, refundBatchFailuresGauge] = groupCommitGauges("refund", refundBatchSizes, refundBatchFailures, {
  batches: "Refund batches run since start, by how many requests each carried (group commit of refunds; counts only grow).",
  failures: "Refund batches whose transaction failed and whose requests then ran one transaction each (a deadlock between cores; otherwise a bug).",
});

export const [linkAdmitBatches, linkAdmitBatchFailures] = groupCommitGauges("link_admit", admitBatchSizes, admitBatchFailures, {
  batches: "Payment-link pay limit counts run since start, by how many attempts each carried (group commit of the admission; counts only grow).",
  failures: "Admission batches that failed and whose attempts then ran one statement each (a deadlock between cores; otherwise a bug).",
});

export const dbPoolConnections = new Gauge({
  name: "paytami_core_db_pool_connections",
  help: "PostgreSQL connections of the core's pool, by state (busy, idle) and its size (max: DB_POOL_SIZE).",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const pool = poolWatch.stats();
    this.set({ state: "busy" }, pool.total - pool.idle);
    this.set({ state: "idle" }, pool.idle);
    this.set({ state: "max" }, pool.max);
  },
});

export const dbPoolWaiting = new Gauge({
  name: "paytami_core_db_pool_waiting",
  help: "Requests queued for a PostgreSQL connection because every one of the pool is busy.",
  registers: [registry],
  collect() {
    this.set(poolWatch.stats().waiting);
  },
});

export const dbPoolAcquireTimeouts = new Gauge({
  name: "paytami_core_db_pool_acquire_timeouts",
  help: "Requests that waited DB_CONNECT_TIMEOUT for a pooled connection and were answered 503, since start (counts only grow).",
  registers: [registry],
  collect() {
    this.set(poolWatch.stats().acquireTimeouts);
  },
});
