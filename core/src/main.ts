// The core process: gRPC for the facade, dispatcher and CLI; HTTP for health
// and metrics; background jobs. The only process that touches PostgreSQL.
import { setTimeout as sleep } from "node:timers/promises";
import { loadConfig, type CoreConfig } from "./config.ts";
import { migrate, openOrm } from "./db/orm.ts";
import { keyUsesWritten } from "./domain/api-key-use.ts";
import type { CoreDeps } from "./domain/deps.ts";
import { drainGrpcServer, startGrpcServer } from "./grpc/server.ts";
import { startHttpServer, type HealthProbe } from "./http/server.ts";
import { duePayments, expireDuePayments } from "./jobs/expire-payments.ts";
import { OutboxRelay, unpublishedEvents } from "./jobs/outbox-relay.ts";
import { everyInterval } from "./jobs/periodic.ts";
import { confirmBankTransfers, startedBankTransfers } from "./jobs/confirm-bank-transfers.ts";
import { settleDuePayments } from "./jobs/settle-payments.ts";
import { purgeExpiredEvents } from "./jobs/purge-events.ts";
import { expiredIdempotencyKeys, purgeExpiredIdempotencyKeys } from "./jobs/purge-idempotency-keys.ts";
import { purgePastRateLimitWindows } from "./jobs/purge-link-rate-limits.ts";
import { purgeEndedSessions, purgeExpiredAuditEntries, purgeSpentUserTokens } from "./jobs/purge-audit-log.ts";
import { purgeExpiredRequestLogs } from "./jobs/purge-request-logs.ts";
import { RequestLogWriter } from "./jobs/request-log-writer.ts";
import { dueBankAccounts, recoverPayouts, sweepPayouts, unfinishedPayouts } from "./jobs/sweep-payouts.ts";
import { createLogger } from "../../proto/runtime/logger.ts";
import type { Processors } from "./processor/processor.ts";
import { startTracing } from "../../proto/runtime/tracing.ts";

const log = createLogger("core");

/** What a test harness may replace in a core it launches (test/support: a card network standing in for the live processor). */
export interface CoreOverrides {
  processors?: (config: CoreConfig) => Processors;
}

export async function runCore(overrides: CoreOverrides = {}): Promise<void> {
  // First (OTEL_EXPORTER_OTLP_ENDPOINT): spans for gRPC calls, operations, their SQL and the relay.
  const tracing = await startTracing("paytami-core", { sql: true });
  const config = loadConfig();
  const orm = await openOrm({
    databaseUrl: config.databaseUrl,
    poolSize: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutMs,
  });
  if (config.migrateOnStart) {
    const applied = await migrate(orm);
    if (applied.length) log.info({ applied }, "migrations applied");
  }
  const processors = overrides.processors?.(config);
  const deps: CoreDeps = { orm, config, log, now: () => new Date(), ...(processors ? { processors } : {}) };
  if (processors) log.warn({ modes: Object.keys(processors) }, "processors replaced by the launcher (a test harness)");

  const probes: HealthProbe[] = [];
  const relay = config.natsUrl ? new OutboxRelay(deps, config.natsUrl) : undefined;
  if (relay) {
    probes.push({ name: "nats", check: async () => relay.connected });
    relay.start().catch((err: unknown) => log.error({ err }, "outbox relay could not connect to NATS"));
  } else {
    log.warn("NATS_URL is not set: events stay in the outbox until a core with NATS relays them");
  }
  // The facades' request logs, batch by batch (REQUEST_LOGS=off: this core takes none). A core that
  // served before its writer had subscribed would let the facades' first batches go to nobody, so it
  // waits for the subscription, but not for long: with NATS away it serves anyway.
  const requestLogWriter = config.natsUrl && config.requestLogs.enabled ? new RequestLogWriter(deps) : undefined;
  if (requestLogWriter) {
    // Settles once subscribed, or once the thread failed (logged: waiting longer would not help).
    const started = requestLogWriter
      .start(config.natsUrl!, config.requestLogs.subject)
      .catch((err: unknown) => void log.error({ err }, "request-log writer could not connect to NATS"));
    const waited = sleep(config.requestLogs.subscribeWaitMs, "waited" as const, { ref: false });
    if ((await Promise.race([started, waited])) === "waited")
      log.warn({ waited_ms: config.requestLogs.subscribeWaitMs }, "request logs: not subscribed yet (NATS unreachable?); serving, logs are lost until it is");
  }
  // Every background job, with its policy from config (intervals, batch sizes, leases).
  const {
    expirePayments,
    purgeIdempotencyKeys,
    outboxRelay,
    purgeEvents,
    confirmBankTransfers: confirmPolicy,
    settlePayments,
    purgeLinkRateLimits,
    purgeAuditLog,
    purgeRequestLogs,
    sweepPayouts: sweepPolicy,
    recoverPayouts: recoverPolicy,
  } = config.jobs;
  const schedule = [
    { job: duePayments.job, every: expirePayments.intervalMs, run: () => expireDuePayments(deps, expirePayments) },
    { job: expiredIdempotencyKeys.job, every: purgeIdempotencyKeys.intervalMs, run: () => purgeExpiredIdempotencyKeys(deps, purgeIdempotencyKeys) },
    { job: "purge_events", every: purgeEvents.intervalMs, run: () => purgeExpiredEvents(deps, purgeEvents) },
    { job: startedBankTransfers(deps).job, every: confirmPolicy.intervalMs, run: () => confirmBankTransfers(deps, confirmPolicy) },
    { job: "settle_payments", every: settlePayments.intervalMs, run: () => settleDuePayments(deps, settlePayments) },
    { job: "purge_link_rate_limits", every: purgeLinkRateLimits.intervalMs, run: () => purgePastRateLimitWindows(deps, purgeLinkRateLimits) },
    { job: "purge_audit_log", every: purgeAuditLog.intervalMs, run: () => purgeExpiredAuditEntries(deps, purgeAuditLog) },
    { job: "purge_dashboard_sessions", every: purgeAuditLog.intervalMs, run: () => purgeEndedSessions(deps, purgeAuditLog) },
    { job: "purge_dashboard_user_tokens", every: purgeAuditLog.intervalMs, run: () => purgeSpentUserTokens(deps, purgeAuditLog) },
    { job: "purge_request_logs", every: purgeRequestLogs.intervalMs, run: () => purgeExpiredRequestLogs(deps, purgeRequestLogs) },
    ...(config.payoutScheduleMs !== null ? [{ job: dueBankAccounts.job, every: sweepPolicy.intervalMs, run: () => sweepPayouts(deps, sweepPolicy) }] : []),
    { job: unfinishedPayouts.job, every: recoverPolicy.intervalMs, run: () => recoverPayouts(deps, recoverPolicy) },
    ...(relay
      ? [{ job: unpublishedEvents.job, every: outboxRelay.intervalMs, run: () => relay.relayOnce(outboxRelay), wakeDelayMs: outboxRelay.gatherMs }]
      : []),
  ];
  const jobs = schedule.map(({ job, every, run, ...options }) =>
    everyInterval(job, every, log, run, { ...options, failureReportMs: config.jobs.failureReportMs }),
  );
  const relayJob = relay ? jobs[schedule.findIndex((s) => s.job === unpublishedEvents.job)] : undefined;
  if (relay && relayJob) relay.listen(() => relayJob.wake());

  const grpc = await startGrpcServer(deps);
  const http = await startHttpServer(deps, probes);
  const tls = !config.tls ? "off" : config.tls.ca ? "client certificates required" : "on";
  log.info({ grpc: config.grpcAddr, grpc_port: grpc.port, grpc_tls: tls, http_port: config.httpPort }, "core ready");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "draining");
    http.close();
    await drainGrpcServer(grpc, config.shutdownGraceMs);
    await Promise.all(jobs.map((job) => job.stop()));
    await relay?.close();
    await keyUsesWritten(deps);
    await requestLogWriter?.close();
    await orm.close();
    await tracing?.shutdown().catch(() => undefined);
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

if (import.meta.main) {
  runCore().catch((err: unknown) => {
    log.fatal({ err }, "core failed to start");
    process.exit(1);
  });
}
