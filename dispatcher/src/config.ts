import { coreTlsEnv, type CoreTls } from "../../proto/core-tls.ts";
import { DISPATCHER_CONSUMER } from "../../proto/event-stream.ts";
import { parseDuration, serviceTokenEnv, webhookAllowLoopbackEnv } from "../../proto/runtime/env.ts";

export interface DispatcherConfig {
  /** NATS_URL: one server, or several of a cluster, comma-separated. */
  natsUrl: string;
  /** NATS_STREAM_REPLICAS: copies of the event stream and of this consumer (3 in a three-node cluster). */
  natsStreamReplicas: number;
  /** DISPATCHER_PULL_EXPIRES: a pull for events waits this long at most; bounds the stall after a NATS leader election. */
  pullExpiresMs: number;
  coreGrpcAddr: string;
  /** PAYTAMI_DISPATCHER_TOKEN, sent on every core call: the dispatcher's own credential, good only for the delivery service (core/src/grpc/access.ts). */
  internalToken: string;
  /** CORE_TLS_*: the dispatcher's client certificate and the CA of the core's; null: plaintext. */
  coreTls: CoreTls | null;
  httpPort: number;
  /** The durable JetStream consumer every dispatcher of one deployment shares. */
  consumer: string;
  /** Attempts in flight at once in this process (the per-endpoint bound is the core's, over all dispatchers). */
  concurrency: number;
  /** Only a 2xx within this long counts (DESIGN §4: 15 s). */
  timeoutMs: number;
  /** How long a claimed delivery stays away from other dispatchers: longer than an attempt and its recording take. */
  leaseMs: number;
  /** How often to look for due retries when nothing woke the loop earlier. */
  pollIntervalMs: number;
  /** SIGTERM: how long in-flight attempts may finish before they are handed back. */
  shutdownGraceMs: number;
  /** WEBHOOK_ALLOW_LOOPBACK: test-mode deliveries may go to loopback (local development); the core reads the same setting. */
  allowLoopback: boolean;
  /** SIGTERM: the longest stopping takes, whatever answers or not (the grace, then 5 s to record outcomes). */
  drainMs: number;
  /** A core call that failed is tried again after this long, doubling up to `coreRetryMaxMs` while it keeps failing. */
  coreRetryMinMs: number;
  coreRetryMaxMs: number;
  /**
   * How many times one attempt's outcome is offered to the core before it is recorded as a failed
   * attempt instead (and that, as many times, before it is given up: the lease returns the delivery).
   */
  recordTries: number;
}

function positiveInt(source: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = source[name] || String(fallback);
  if (!/^[1-9]\d*$/.test(text)) throw new Error(`${name} must be a positive integer, got "${text}"`);
  return Number(text);
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): DispatcherConfig {
  const internalToken = serviceTokenEnv(source, "PAYTAMI_DISPATCHER_TOKEN");
  if (!internalToken) {
    throw new Error(
      "PAYTAMI_DISPATCHER_TOKEN is required: the dispatcher's own credential, which the core must know too (the operator's PAYTAMI_INTERNAL_TOKEN is not the dispatcher's; npm start and the test harness set both)",
    );
  }
  const timeoutMs = parseDuration(source.WEBHOOK_TIMEOUT || "15s");
  const shutdownGraceMs = parseDuration(source.SHUTDOWN_GRACE || "10s");
  const coreRetryMinMs = parseDuration(source.DISPATCHER_CORE_RETRY_MIN || "250ms");
  const coreRetryMaxMs = parseDuration(source.DISPATCHER_CORE_RETRY_MAX || "5s");
  if (coreRetryMinMs < 1 || coreRetryMaxMs < coreRetryMinMs) {
    throw new Error("DISPATCHER_CORE_RETRY_MIN must be above 0 and at most DISPATCHER_CORE_RETRY_MAX");
  }
  // JetStream refuses pulls that expire in under a second.
  const pullExpiresMs = parseDuration(source.DISPATCHER_PULL_EXPIRES || "5s");
  if (pullExpiresMs < 1_000) throw new Error("DISPATCHER_PULL_EXPIRES must be at least 1s");
  return {
    natsUrl: source.NATS_URL || "nats://127.0.0.1:4222",
    natsStreamReplicas: positiveInt(source, "NATS_STREAM_REPLICAS", 1),
    pullExpiresMs,
    coreGrpcAddr: source.CORE_GRPC_ADDR || "127.0.0.1:50051",
    internalToken,
    coreTls: coreTlsEnv(source, "client"),
    httpPort: Number(source.DISPATCHER_HTTP_PORT || 4002),
    consumer: source.DISPATCHER_CONSUMER || DISPATCHER_CONSUMER,
    concurrency: positiveInt(source, "DISPATCHER_CONCURRENCY", 256),
    timeoutMs,
    leaseMs: 2 * timeoutMs + 10_000,
    pollIntervalMs: parseDuration(source.DISPATCHER_POLL_INTERVAL || "250ms"),
    shutdownGraceMs,
    drainMs: shutdownGraceMs + 5_000,
    coreRetryMinMs,
    coreRetryMaxMs,
    recordTries: positiveInt(source, "DISPATCHER_RECORD_TRIES", 3),
    allowLoopback: webhookAllowLoopbackEnv(source),
  };
}
