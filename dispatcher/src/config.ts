import { parseDuration, webhookAllowLoopbackEnv } from "../../core/src/config.ts";
import { DISPATCHER_CONSUMER } from "../../proto/event-stream.ts";

export interface DispatcherConfig {
  natsUrl: string;
  coreGrpcAddr: string;
  /** Sent on every core call: every gRPC service of the core requires it. */
  internalToken: string;
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
}

function positiveInt(source: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = source[name] || String(fallback);
  if (!/^[1-9]\d*$/.test(text)) throw new Error(`${name} must be a positive integer, got "${text}"`);
  return Number(text);
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): DispatcherConfig {
  const internalToken = source.PAYTAMI_INTERNAL_TOKEN;
  if (!internalToken) throw new Error("PAYTAMI_INTERNAL_TOKEN is required: the core answers only callers that send it (npm start and the test harness set it)");
  const timeoutMs = parseDuration(source.WEBHOOK_TIMEOUT || "15s");
  return {
    natsUrl: source.NATS_URL || "nats://127.0.0.1:4222",
    coreGrpcAddr: source.CORE_GRPC_ADDR || "127.0.0.1:50051",
    internalToken,
    httpPort: Number(source.DISPATCHER_HTTP_PORT || 4002),
    consumer: source.DISPATCHER_CONSUMER || DISPATCHER_CONSUMER,
    concurrency: positiveInt(source, "DISPATCHER_CONCURRENCY", 256),
    timeoutMs,
    leaseMs: 2 * timeoutMs + 10_000,
    pollIntervalMs: parseDuration(source.DISPATCHER_POLL_INTERVAL || "250ms"),
    shutdownGraceMs: parseDuration(source.SHUTDOWN_GRACE || "10s"),
    allowLoopback: webhookAllowLoopbackEnv(source),
  };
}
