import path from "node:path";
import { coreTlsEnv, type CoreTls } from "../../proto/core-tls.ts";
import { REQUEST_LOG_SUBJECT } from "../../proto/request-log.ts";
import { isDuration, parseDuration, parseWindowLimit, serviceTokenEnv, threadNiceEnv } from "../../proto/runtime/env.ts";
import { parseTrustProxy, type TrustedProxies } from "./client-ip.ts";

export interface FacadeConfig {
  port: number;
  publicBaseUrl: string;
  /** The Strict-Transport-Security value sent on every response when PUBLIC_BASE_URL is https; none on http. */
  strictTransportSecurity: string | undefined;
  embedBaseUrl: string;
  coreGrpcAddr: string;
  /** PAYTAMI_FACADE_TOKEN, sent on every core call: the facade's own credential, good only for what its routes call (core/src/grpc/access.ts). */
  internalToken: string;
  /** CORE_TLS_*: the facade's client certificate and the CA of the core's; null: plaintext. */
  coreTls: CoreTls | null;
  /** Deadline of every core call: the facade answers processor_unavailable rather than hang. */
  coreTimeoutMs: number;
  shutdownGraceMs: number;
  bodyLimitBytes: number;
  /** TRUST_PROXY: which peers' X-Forwarded-For is believed (client-ip.ts); otherwise a client could forge its IP. */
  trustProxy: TrustedProxies;
  /** PUBLIC_ROUTE_LIMIT: requests per client address and fixed window to the public id routes, on each facade; null: off. */
  publicRouteLimit: { perIp: number; windowMs: number } | null;
  /** CORE_HTTP_URL: the core's HTTP port (dashboard tRPC and exports); by default CORE_GRPC_ADDR's host and CORE_HTTP_PORT. */
  coreHttpUrl: string;
  /** The merchant dashboard's host (routes/dashboard.ts). */
  dashboard: DashboardHostConfig;
  /** NATS_URL: where request logs go (request-logs/publisher.ts); unset: none are recorded. */
  natsUrl: string | undefined;
  /** REQUEST_LOGS and its policies; null: off (REQUEST_LOGS=off, or no NATS_URL). */
  requestLogs: RequestLogsConfig | null;
  /** METRICS_PORT: the facade's counters (metrics.ts) on this loopback port; null: not served. */
  metricsPort: number | null;
}

/** The request-log recorder's policies (facade/README.md "Request logs"). */
export interface RequestLogsConfig {
  /** REQUEST_LOG_SUBJECT: the NATS subject, the same on the cores. */
  subject: string;
  /** REQUEST_LOG_BATCH: records per NATS message at most (a full batch is sent at once). */
  batchSize: number;
  /** REQUEST_LOG_FLUSH: the longest a record waits in the buffer. */
  flushMs: number;
  /** REQUEST_LOG_BUFFER: records held at most; past it new ones are dropped and counted. */
  maxEntries: number;
  /** REQUEST_LOG_BODY_CAP: bytes kept of each body (after redaction). */
  bodyCapBytes: number;
  /** REQUEST_LOG_THREAD_HEAP: megabytes of old-generation heap the publisher's thread may use. */
  threadHeapMb: number;
  /** REQUEST_LOG_THREAD_NICE: the publisher thread's nice value (19, the lowest priority: it takes the CPU the request thread leaves). */
  threadNice: number;
  /**
   * The request thread hands its records to the publisher's thread this many at a time at most, and
   * at least this often (ms): so a captured request and its bodies die young on the request thread's
   * heap, instead of surviving its minor GCs into the old generation while a NATS batch fills (which
   * cost the facade major GCs). The publisher's thread gathers the NATS batches (batchSize, flushMs).
   */
  handoffBatch: number;
  handoffMs: number;
}

/** The hand-off's bounds (RequestLogsConfig.handoffBatch, handoffMs): well under a young generation's lifetime at load. */
const HANDOFF_BATCH = 64;
const HANDOFF_MS = 10;

function requestLogsEnv(source: NodeJS.ProcessEnv): RequestLogsConfig | null {
  const switchText = (source.REQUEST_LOGS || "on").trim();
  if (switchText !== "on" && switchText !== "off") throw new Error(`REQUEST_LOGS must be on or off, got "${switchText}"`);
  if (switchText === "off" || !source.NATS_URL) return null;
  const flush = source.REQUEST_LOG_FLUSH || "250ms";
  const flushMs = isDuration(flush) ? parseDuration(flush) : 0;
  if (flushMs <= 0) throw new Error(`REQUEST_LOG_FLUSH must be a duration such as 250ms or 1s, got "${flush}"`);
  const batchSize = positiveIntEnv(source, "REQUEST_LOG_BATCH", 500);
  return {
    subject: source.REQUEST_LOG_SUBJECT || REQUEST_LOG_SUBJECT,
    batchSize,
    flushMs,
    maxEntries: positiveIntEnv(source, "REQUEST_LOG_BUFFER", 10_000),
    bodyCapBytes: positiveIntEnv(source, "REQUEST_LOG_BODY_CAP", 8 * 1024),
    threadHeapMb: Math.max(16, positiveIntEnv(source, "REQUEST_LOG_THREAD_HEAP", 32)),
    threadNice: threadNiceEnv(source, "REQUEST_LOG_THREAD_NICE"),
    handoffBatch: Math.min(HANDOFF_BATCH, batchSize),
    handoffMs: Math.min(HANDOFF_MS, flushMs),
  };
}

/** The core's HTTP port on the host of its gRPC address (where `npm start` and the harness run both). */
function defaultCoreHttpUrl(source: NodeJS.ProcessEnv): string {
  const grpc = source.CORE_GRPC_ADDR || "127.0.0.1:50051";
  const host = grpc.slice(0, grpc.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  const httpHost = host === "" || host === "localhost" || host === "0.0.0.0" ? "127.0.0.1" : host;
  return `http://${httpHost.includes(":") ? `[${httpHost}]` : httpHost}:${source.CORE_HTTP_PORT || 4001}`;
}

export interface DashboardHostConfig {
  /** DASHBOARD_DIR: the built app (`vite build` of facade/dashboard), served under /dashboard. */
  dir: string;
  /**
   * DASHBOARD_BODY_LIMIT_BYTES: the largest tRPC request body forwarded. 384 KiB: the largest logo
   * (LOGO_MAX_BYTES, 256 KiB) as base64 inside JSON is about 342 KiB; every other input is far below.
   */
  bodyLimitBytes: number;
  /** The session cookie (DESIGN §5): `__Host-` prefixed and Secure when PUBLIC_BASE_URL is https. */
  cookieName: string;
  secureCookie: boolean;
  /** The origin a mutation's `Origin` must equal (CSRF, DESIGN §5). */
  publicOrigin: string;
}

/**
 * PUBLIC_ROUTE_LIMIT: "300/ip,60s" (the default): each client address (an IPv6 one by its /64) may
 * make 300 requests per 60 s window to the public routes addressed by a payment or link id, on each
 * facade; "off" turns it off. The window is a duration of at least 1s.
 */
function parsePublicRouteLimit(text: string): FacadeConfig["publicRouteLimit"] {
  const limit = parseWindowLimit("PUBLIC_ROUTE_LIMIT", text, ["ip"], "300/ip,60s");
  return limit && { perIp: limit.counts.ip, windowMs: limit.windowMs };
}

/** One year, subdomains included (the value browsers' preload lists ask for, less `preload`, which is an operator's choice). */
const HSTS_VALUE = "max-age=31536000; includeSubDomains";

/** dist/dashboard of this checkout, whether the facade runs compiled (dist/facade/src) or from source (facade/src). */
function defaultDashboardDir(): string {
  const here = import.meta.dirname;
  const root = path.basename(path.resolve(here, "../..")) === "dist" ? path.resolve(here, "../../..") : path.resolve(here, "../..");
  return path.join(root, "dist", "dashboard");
}

function positiveIntEnv(source: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = source[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${text}"`);
  return value;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): FacadeConfig {
  const port = Number(source.PORT || 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a TCP port, got "${source.PORT}"`);
  const internalToken = serviceTokenEnv(source, "PAYTAMI_FACADE_TOKEN");
  if (!internalToken) {
    throw new Error(
      "PAYTAMI_FACADE_TOKEN is required: the facade's own credential, which the core must know too (the operator's PAYTAMI_INTERNAL_TOKEN is not the facade's; npm start and the test harness set both)",
    );
  }
  const publicBaseUrl = (source.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  const https = publicBaseUrl.toLowerCase().startsWith("https://");
  return {
    port,
    publicBaseUrl,
    strictTransportSecurity: https ? HSTS_VALUE : undefined,
    embedBaseUrl: (source.EMBED_BASE_URL || publicBaseUrl).replace(/\/+$/, ""),
    coreGrpcAddr: source.CORE_GRPC_ADDR || "127.0.0.1:50051",
    internalToken,
    coreTls: coreTlsEnv(source, "client"),
    coreTimeoutMs: Number(source.CORE_TIMEOUT_MS || 10_000),
    shutdownGraceMs: Number(source.SHUTDOWN_GRACE_MS || 10_000),
    bodyLimitBytes: 64 * 1024,
    trustProxy: parseTrustProxy(source.TRUST_PROXY),
    publicRouteLimit: parsePublicRouteLimit(source.PUBLIC_ROUTE_LIMIT || "300/ip,60s"),
    coreHttpUrl: (source.CORE_HTTP_URL || defaultCoreHttpUrl(source)).replace(/\/+$/, ""),
    dashboard: {
      dir: source.DASHBOARD_DIR || defaultDashboardDir(),
      bodyLimitBytes: positiveIntEnv(source, "DASHBOARD_BODY_LIMIT_BYTES", 384 * 1024),
      cookieName: https ? "__Host-paytami_session" : "paytami_session",
      secureCookie: https,
      publicOrigin: new URL(publicBaseUrl).origin,
    },
    natsUrl: source.NATS_URL || undefined,
    requestLogs: requestLogsEnv(source),
    metricsPort: source.METRICS_PORT ? positiveIntEnv(source, "METRICS_PORT", 0) : null,
  };
}
