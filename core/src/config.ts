// Every policy of the core (fees, limits, TTLs, retry schedule, rate limits,
// sandbox delays) lives here as data, overridable by environment variables
// with the defaults of DESIGN §3/§4.
import { randomBytes } from "node:crypto";
import { coreTlsEnv, type CoreTls } from "../../proto/core-tls.ts";
import { REQUEST_LOG_SUBJECT } from "../../proto/request-log.ts";
import {
  isDuration,
  parseDuration,
  parseDurationList,
  parseWindowLimit,
  serviceTokenEnv,
  threadNiceEnv,
  webhookAllowLoopbackEnv,
} from "../../proto/runtime/env.ts";

export type Currency = "GTQ" | "USD";
export type MethodType = "card" | "bank_transfer";
export type Mode = "test" | "live";

export const CURRENCIES: readonly Currency[] = ["GTQ", "USD"];
export const METHOD_TYPES: readonly MethodType[] = ["card", "bank_transfer"];

export interface AmountLimits {
  min: bigint;
  max: bigint;
}

/** Fee = percentage part (basis points of a percent, i.e. 1/10000) rounded half-up + fixed part, at least `minimum`. */
export interface FeeRule {
  basisPoints: bigint;
  fixed: bigint;
  minimum: bigint;
}

export interface CurrencyPolicy {
  limits: AmountLimits;
  methods: readonly MethodType[];
  fees: Partial<Record<MethodType, FeeRule>>;
}

/** How often a background job runs and how many rows it claims per run (core/src/jobs/claim.ts). */
export interface JobPolicy {
  intervalMs: number;
  /** At most this many rows per claim. */
  batch: number;
}

export interface LeasedJobPolicy extends JobPolicy {
  /** For jobs doing I/O outside a transaction: how long a claimed row stays away from other cores; longer than the work ever takes. */
  leaseMs: number;
}

export interface OutboxRelayPolicy extends LeasedJobPolicy {
  /**
   * OUTBOX_RELAY_GATHER: how long the relay waits after a commit's notification before it claims, so
   * that the commits of those milliseconds leave in the same pass (one claim, one batch of publishes,
   * one completion) rather than a pass each; 0ms claims at once. The poll (OUTBOX_RELAY_INTERVAL)
   * is not delayed.
   */
  gatherMs: number;
}

export interface JobPolicies {
  expirePayments: JobPolicy;
  confirmBankTransfers: JobPolicy;
  settlePayments: JobPolicy;
  purgeIdempotencyKeys: JobPolicy;
  outboxRelay: OutboxRelayPolicy;
  purgeEvents: JobPolicy;
  purgeLinkRateLimits: JobPolicy;
  /** Deletes audit-log rows older than AUDIT_RETENTION, and dashboard sessions and invite/reset tokens past their lifetime. */
  purgeAuditLog: JobPolicy;
  /** Deletes request logs older than REQUEST_LOG_RETENTION. */
  purgeRequestLogs: JobPolicy;
  /** Claims bank accounts whose scheduled payout is due (PAYOUT_SCHEDULE) and pays out their available balance. */
  sweepPayouts: JobPolicy;
  /** Moves on payouts a core left half-way through the bank's steps; the lease is also how long a new payout is left to its creator. */
  recoverPayouts: LeasedJobPolicy;
  /**
   * JOB_FAILURE_LOG_INTERVAL: a job's first failed run is logged in full; while it keeps failing
   * (a NATS election fails every relay pass, ~30 a second) it says so again at most this often.
   */
  failureReportMs: number;
}

export interface RequestLogPolicy {
  /** REQUEST_LOG_RETENTION: logs older than this are purged (30d). */
  retentionMs: number;
  /** REQUEST_LOG_SUBJECT: the NATS subject the facades publish batches on, the same on both sides. */
  subject: string;
  /** REQUEST_LOGS=off: this core does not subscribe (the facades' switch is their own). */
  enabled: boolean;
  /** REQUEST_LOG_THREAD_HEAP: megabytes of old-generation heap the writer's thread may use (its garbage is bounded, not the core's). */
  threadHeapMb: number;
  /** REQUEST_LOG_THREAD_NICE: the writer thread's nice value (19, the lowest priority: it takes the CPU the gRPC thread leaves). */
  threadNice: number;
  /**
   * REQUEST_LOG_SUBSCRIBE_WAIT: how long a starting core waits for its writer to subscribe before it
   * serves (the facades publish to whichever cores subscribe; until one has, a batch reaches nobody).
   * With NATS away the core serves after this wait, and the logs meanwhile are lost.
   */
  subscribeWaitMs: number;
}

/** Webhook delivery policies (DESIGN §4 "Webhooks"); the retry schedule is `webhookRetryScheduleMs`. */
export interface WebhookPolicy {
  /** At most this many attempts to one endpoint are in flight at once, over every dispatcher, so a slow endpoint holds only its own slots. */
  endpointConcurrency: number;
  /** An endpoint whose attempts have only failed for this long is disabled. */
  disableAfterMs: number;
  /**
   * WEBHOOK_ALLOW_LOOPBACK: test-mode endpoints may point at loopback (127.0.0.0/8, ::1), for local
   * development (`npm start` and the test harness turn it on). Off by default: every endpoint of
   * either mode must then reach a public address. The dispatcher reads the same setting.
   */
  allowLoopback: boolean;
  /**
   * WEBHOOK_REPLAY_FAILED_MAX: "replay every failed delivery since a time" makes at most this many
   * due at once (the oldest first), so one click cannot flood an endpoint; it says whether more remain.
   */
  replayFailedMax: number;
}

export interface CoreConfig {
  databaseUrl: string;
  /** NATS_URL: one server, or several of a cluster, comma-separated. */
  natsUrl: string | undefined;
  /** NATS_STREAM_REPLICAS: copies of the event stream (3 in a three-node cluster). */
  natsStreamReplicas: number;
  grpcAddr: string;
  httpPort: number;
  /** TRPC_MAX_BODY_BYTES: a larger /trpc request body is refused (413) as it arrives, before any of it is parsed. */
  trpcMaxBodyBytes: number;
  publicBaseUrl: string;
  embedBaseUrl: string;
  /**
   * Each internal process's own credential (PAYTAMI_INTERNAL_TOKEN is the operator's, then
   * PAYTAMI_FACADE_TOKEN and PAYTAMI_DISPATCHER_TOKEN); what each may call is core/src/grpc/access.ts.
   */
  serviceTokens: Readonly<Record<ServiceName, string>>;
  /** CORE_TLS_*: the gRPC port's certificate, and the CA its clients' certificates must chain to; null: plaintext. */
  tls: CoreTls | null;
  embedTokenSecret: string;
  embedTokenTtlMs: number;
  paymentTtlMs: number;
  idempotencyTtlMs: number;
  settlementDelaysMs: readonly number[];
  bankTransferConfirmAfterMs: number;
  webhookRetryScheduleMs: readonly number[];
  webhooks: WebhookPolicy;
  /** Events (outbox rows, once published) are kept this long for GET /v1/events and replay, then purged. */
  eventRetentionMs: number;
  /** The merchants' request logs (core/README.md "Request logs"). */
  requestLogs: RequestLogPolicy;
  /** Pay attempts admitted per fixed window, per client IP and per link; null: off. */
  linkRateLimit: { perIp: number; perLink: number; windowMs: number } | null;
  /** Card submits on the hosted page admitted per fixed window, per payment and per client IP; null: off. */
  cardSubmitLimit: { perPayment: number; perIp: number; windowMs: number } | null;
  /** The merchant dashboard's identity policies (DESIGN §5; core/README.md "Dashboard identity"). */
  dashboard: DashboardPolicy;
  /** API keys: rolling and "last used" (core/README.md "API keys"). */
  apiKeys: ApiKeyPolicy;
  currencies: Record<Currency, CurrencyPolicy>;
  dbPoolSize: number;
  /**
   * DB_CONNECT_TIMEOUT: a new PostgreSQL connection (or a probe for the primary) that takes longer
   * fails; so does a request that waits longer for a pooled connection while all are busy (503).
   */
  dbConnectTimeoutMs: number;
  /** DB_POOL_RETRY_AFTER: the Retry-After (whole seconds) of the 503 a request gets when the pool stayed saturated. */
  dbPoolRetryAfterSeconds: number;
  /**
   * DB_IDLE_IN_TRANSACTION_TIMEOUT: PostgreSQL ends a core's session whose transaction has waited this
   * long for its next statement. A core's transactions never wait on anything but the database (no
   * processor, bank or NATS call inside one), so such a session belongs to a core that hangs, was
   * stopped or lost its network while holding row locks: without it, requests on those rows would
   * wait until TCP gave up on the connection (hours). The two transactions that wait by design (the
   * migration lock, ledger verify's snapshot) switch it off for themselves.
   */
  dbIdleInTransactionTimeoutMs: number;
  migrateOnStart: boolean;
  shutdownGraceMs: number;
  jobs: JobPolicies;
  /** PAYOUT_SCHEDULE: how often each bank account's available balance is swept to it; null: off (on demand only). */
  payoutScheduleMs: number | null;
  sandbox: SandboxPolicy;
  /** How long a claimed processor attempt keeps others off its payment; longer than a processor call ever takes. */
  processorAttemptLeaseMs: number;
  /**
   * PROCESSOR_CALL_TIMEOUT: the deadline of every processor and bank call, shorter than the attempt
   * lease and the payout lease (checked at start-up), so no call outlives the claim it was made under.
   */
  processorCallTimeoutMs: number;
  /** What the dashboard's read views use (core/README.md "Dashboard views"). */
  dashboardViews: DashboardViewsPolicy;
  logo: LogoPolicy;
  /** Group commit of charge creation (core/README.md "Group commit"). */
  createBatch: CreateBatchPolicy;
  /** Group commit of refund creation (core/README.md "Group commit of refunds"): REFUND_BATCH, REFUND_BATCH_MAX, REFUND_BATCH_WAIT, as CREATE_BATCH*. */
  refundBatch: CreateBatchPolicy;
  /**
   * Group commit of the link pay limit's count (core/README.md "Rate limit (`LINK_RATE_LIMIT`)"): on and
   * size as CREATE_BATCH; LINK_ADMIT_BATCH_WAIT (ms, default 0) its own wait. A pay's count is the
   * first of its two batches, so a wait there holds back its creation batch too.
   */
  linkAdmitBatch: CreateBatchPolicy;
}

export interface CreateBatchPolicy {
  /** CREATE_BATCH=on|off: creation statements arriving together run as one statement over arrays. */
  on: boolean;
  /** CREATE_BATCH_MAX: the most requests one statement carries. */
  max: number;
  /** CREATE_BATCH_WAIT (ms, 0: none): how long an idle batcher waits for company, only while requests have been arriving together. */
  waitMs: number;
}

function batchEnv(source: NodeJS.ProcessEnv, prefix: "CREATE_BATCH" | "REFUND_BATCH"): CreateBatchPolicy {
  const on = env(source, prefix, "on");
  if (on !== "on" && on !== "off") throw new Error(`${prefix} must be on or off, got "${on}"`);
  return { on: on === "on", max: positiveIntEnv(source, `${prefix}_MAX`, 64), waitMs: intEnv(source, `${prefix}_WAIT`, 1) };
}

export interface DashboardViewsPolicy {
  /**
   * DASHBOARD_TIME_ZONE: the IANA zone a merchant's days are counted in (the home page's 30 days of
   * volume) while the merchant has not chosen one in its settings.
   */
  timeZone: string;
  /** DASHBOARD_DELIVERY_ALERT_WINDOW: failed or retrying webhook deliveries this recent make the home page warn. */
  deliveryAlertWindowMs: number;
  /** DASHBOARD_EXPORT_BATCH: payments read per keyset query while a CSV export streams (memory stays about two such batches). */
  exportBatch: number;
}

export interface LogoPolicy {
  /** LOGO_MAX_BYTES: the largest logo accepted (a PNG as uploaded, an SVG before sanitising). */
  maxBytes: number;
  /** LOGO_MAX_PIXELS: a PNG's width and height may each be at most this (read from its IHDR). */
  maxPixels: number;
  /** LOGO_TYPES: the media types accepted, comma-separated (a subset of image/png and image/svg+xml). */
  types: ReadonlyArray<"image/png" | "image/svg+xml">;
}

const LOGO_TYPES = ["image/png", "image/svg+xml"] as const;

function logoPolicyEnv(source: NodeJS.ProcessEnv): LogoPolicy {
  const types = env(source, "LOGO_TYPES", LOGO_TYPES.join(","))
    .split(",")
    .map((type) => type.trim());
  for (const type of types) {
    if (!(LOGO_TYPES as readonly string[]).includes(type)) throw new Error(`LOGO_TYPES may list only ${LOGO_TYPES.join(", ")}, got "${type}"`);
  }
  return {
    maxBytes: positiveIntEnv(source, "LOGO_MAX_BYTES", 256 * 1024),
    maxPixels: positiveIntEnv(source, "LOGO_MAX_PIXELS", 4096),
    types: types as LogoPolicy["types"],
  };
}

export interface DashboardPolicy {
  /** DASHBOARD_SESSION_IDLE: a session unused this long has ended. */
  sessionIdleMs: number;
  /** DASHBOARD_SESSION_MAX: a session ends this long after its sign-in, however busy. */
  sessionMaxMs: number;
  /**
   * How stale a session's last_seen_at may get before a request writes it again: a minute, or half
   * the idle timeout when that is shorter (so an idle timeout of seconds still sees activity).
   * Derived, not a setting: it only keeps requests from writing on every call.
   */
  touchEveryMs: number;
  /** DASHBOARD_LOGIN_LIMIT: failed sign-ins admitted per fixed window, per account (e-mail) and per client IP; null: off. */
  loginLimit: { perAccount: number; perIp: number; windowMs: number } | null;
  /** DASHBOARD_INVITE_TTL: how long an invite URL can be used. */
  inviteTtlMs: number;
  /** DASHBOARD_RESET_TTL: how long a password-reset URL can be used. */
  resetTtlMs: number;
  /** AUDIT_RETENTION: audit-log rows older than this are purged. */
  auditRetentionMs: number;
}

export interface ApiKeyPolicy {
  /** API_KEY_ROLL_MAX: how long after a roll the old key may keep working (the latest expiry a roll may choose). */
  rollMaxMs: number;
  /** API_KEY_LAST_USED_INTERVAL: a key's last_used_at is written at most once per this, however busy the key. */
  lastUsedIntervalMs: number;
}

/** The sandbox processor's bank account, shown to customers paying by bank transfer in test mode. */
export interface SandboxPolicy {
  beneficiary: { bank_name: string; account_name: string; account_number: string };
}

function env(source: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = source[name];
  return value === undefined || value === "" ? fallback : value;
}

function intEnv(source: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env(source, name, String(fallback));
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a non-negative integer, got "${text}"`);
  return Number(text);
}

function positiveIntEnv(source: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = intEnv(source, name, fallback);
  if (value < 1 || !Number.isSafeInteger(value)) throw new Error(`${name} must be a positive integer, got "${source[name]}"`);
  return value;
}

function minorEnv(source: NodeJS.ProcessEnv, name: string, fallback: bigint): bigint {
  const text = env(source, name, String(fallback));
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be an integer amount in minor units, got "${text}"`);
  return BigInt(text);
}

/** "3.50" (percent) → 350 basis points of a percent expressed per 10 000. */
function percentEnv(source: NodeJS.ProcessEnv, name: string, fallback: string): bigint {
  const text = env(source, name, fallback);
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new Error(`${name} must be a percentage with at most two decimals, got "${text}"`);
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
}

// Required, not defaulted: a secret each process invented for itself would make every embed
// token minted by one core fail on another core and after a restart, silently. 32 characters is
// the least a generated secret has (32 random bytes are 43 in base64url), so a typo'd or
// placeholder value is refused too.
const EMBED_TOKEN_SECRET_MIN_LENGTH = 32;

function embedTokenSecretEnv(source: NodeJS.ProcessEnv): string {
  const secret = source.EMBED_TOKEN_SECRET ?? "";
  if (secret.length < EMBED_TOKEN_SECRET_MIN_LENGTH) {
    throw new Error(
      `EMBED_TOKEN_SECRET is ${secret ? `shorter than ${EMBED_TOKEN_SECRET_MIN_LENGTH} characters` : "not set"}: it signs the tokens ` +
        "in checkout_session URLs and must be the same on every core and survive restarts. Generate one once " +
        "(e.g. `openssl rand -base64 32`) and give it to every core; `npm start` keeps one in $PAYTAMI_HOME/dev.json.",
    );
  }
  return secret;
}

/** Paytami's own processes and the variable each one's credential is in (domain/caller.ts names them after it). */
export const SERVICE_TOKEN_ENV = {
  operator: "PAYTAMI_INTERNAL_TOKEN",
  facade: "PAYTAMI_FACADE_TOKEN",
  dispatcher: "PAYTAMI_DISPATCHER_TOKEN",
} as const;

type ServiceName = keyof typeof SERVICE_TOKEN_ENV;

/**
 * Every process's credential, as the core knows them. One left unset is a random token nobody
 * knows: that process is shut out. Two processes sharing one token would give both the wider
 * allow-list, so that is refused.
 */
function serviceTokensEnv(source: NodeJS.ProcessEnv): Record<ServiceName, string> {
  const tokens = {} as Record<ServiceName, string>;
  const variableOf = new Map<string, string>();
  for (const [service, name] of Object.entries(SERVICE_TOKEN_ENV) as Array<[ServiceName, string]>) {
    const token = serviceTokenEnv(source, name);
    const other = token === undefined ? undefined : variableOf.get(token);
    if (other) throw new Error(`${name} is the same as ${other}: each process needs a credential of its own`);
    if (token !== undefined) variableOf.set(token, name);
    tokens[service] = token ?? randomBytes(32).toString("hex");
  }
  return tokens;
}

function positiveDurationEnv(source: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const text = env(source, name, fallback);
  const ms = isDuration(text) ? parseDuration(text) : 0;
  if (ms <= 0) throw new Error(`${name} must be a duration longer than 0 such as 250ms, 5s or 1m, got "${text}"`);
  return ms;
}

/** A duration that may be 0 ("0ms"): a wait that can be switched off. */
function durationEnv(source: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const text = env(source, name, fallback);
  if (!isDuration(text)) throw new Error(`${name} must be a duration such as 0ms, 20ms or 1s, got "${text}"`);
  return parseDuration(text);
}

function jobEnv(source: NodeJS.ProcessEnv, prefix: string, interval: string, batch: number): JobPolicy {
  const size = intEnv(source, `${prefix}_BATCH`, batch);
  if (size < 1) throw new Error(`${prefix}_BATCH must be at least 1`);
  return { intervalMs: positiveDurationEnv(source, `${prefix}_INTERVAL`, interval), batch: size };
}

/** Each job: <JOB>_INTERVAL (how often each core runs it) and <JOB>_BATCH (rows per claim). */
function jobsEnv(source: NodeJS.ProcessEnv): JobPolicies {
  return {
    expirePayments: jobEnv(source, "EXPIRE_PAYMENTS", "5s", 200),
    confirmBankTransfers: jobEnv(source, "CONFIRM_BANK_TRANSFERS", "5s", 200),
    settlePayments: jobEnv(source, "SETTLE_PAYMENTS", "5s", 5_000),
    purgeIdempotencyKeys: jobEnv(source, "IDEMPOTENCY_PURGE", "60s", 1_000),
    outboxRelay: {
      ...jobEnv(source, "OUTBOX_RELAY", "250ms", 200),
      leaseMs: positiveDurationEnv(source, "OUTBOX_RELAY_LEASE", "30s"),
      gatherMs: durationEnv(source, "OUTBOX_RELAY_GATHER", "20ms"),
    },
    purgeEvents: jobEnv(source, "EVENT_PURGE", "60s", 1_000),
    purgeLinkRateLimits: jobEnv(source, "LINK_RATE_LIMIT_PURGE", "60s", 1_000),
    purgeAuditLog: jobEnv(source, "AUDIT_PURGE", "10m", 1_000),
    purgeRequestLogs: jobEnv(source, "REQUEST_LOG_PURGE", "60s", 5_000),
    sweepPayouts: jobEnv(source, "SWEEP_PAYOUTS", "5s", 100),
    recoverPayouts: { ...jobEnv(source, "RECOVER_PAYOUTS", "30s", 100), leaseMs: positiveDurationEnv(source, "RECOVER_PAYOUTS_LEASE", "60s") },
    failureReportMs: positiveDurationEnv(source, "JOB_FAILURE_LOG_INTERVAL", "30s"),
  };
}

/** One delay per settlement step (captured → pending_settlement → settled_to_paytami → available_to_merchant). */
function settlementDelaysEnv(source: NodeJS.ProcessEnv): number[] {
  const delays = parseDurationList(env(source, "SETTLEMENT_DELAYS", "60s,300s,600s"));
  if (delays.length !== 3) throw new Error(`SETTLEMENT_DELAYS must be three durations (one per settlement step), got ${delays.length}`);
  return delays;
}

/**
 * LINK_RATE_LIMIT: pay attempts admitted per window, per client IP and per link, e.g.
 * "10/ip,120/link,60s" (parts in any order, spaces allowed; each count ≥ 1; the window a duration
 * of at least 1s). "off" turns the limit off (benchmarks only: it is what keeps links from being
 * used to probe cards).
 */
export function parseLinkRateLimit(text: string): CoreConfig["linkRateLimit"] {
  const limit = parseWindowLimit("LINK_RATE_LIMIT", text, ["ip", "link"], "10/ip,120/link,60s");
  return limit && { perIp: limit.counts.ip, perLink: limit.counts.link, windowMs: limit.windowMs };
}

/**
 * CARD_SUBMIT_LIMIT: card submits on the hosted page admitted per window, per payment and per
 * client IP, e.g. "5/payment,20/ip,10m" (same format as LINK_RATE_LIMIT). "off" turns it off.
 */
export function parseCardSubmitLimit(text: string): CoreConfig["cardSubmitLimit"] {
  const limit = parseWindowLimit("CARD_SUBMIT_LIMIT", text, ["payment", "ip"], "5/payment,20/ip,10m");
  return limit && { perPayment: limit.counts.payment, perIp: limit.counts.ip, windowMs: limit.windowMs };
}

/**
 * DASHBOARD_LOGIN_LIMIT: failed dashboard sign-ins admitted per window, per account and per client
 * IP, e.g. "5/account,20/ip,15m" (same format as LINK_RATE_LIMIT). "off" turns it off.
 */
export function parseLoginLimit(text: string): DashboardPolicy["loginLimit"] {
  const limit = parseWindowLimit("DASHBOARD_LOGIN_LIMIT", text, ["account", "ip"], "5/account,20/ip,15m");
  return limit && { perAccount: limit.counts.account, perIp: limit.counts.ip, windowMs: limit.windowMs };
}

function dashboardEnv(source: NodeJS.ProcessEnv): DashboardPolicy {
  const sessionIdleMs = positiveDurationEnv(source, "DASHBOARD_SESSION_IDLE", "30m");
  const sessionMaxMs = positiveDurationEnv(source, "DASHBOARD_SESSION_MAX", "12h");
  if (sessionIdleMs > sessionMaxMs)
    throw new Error(`DASHBOARD_SESSION_IDLE (${sessionIdleMs} ms) must not be longer than DASHBOARD_SESSION_MAX (${sessionMaxMs} ms)`);
  return {
    sessionIdleMs,
    sessionMaxMs,
    touchEveryMs: Math.min(60_000, Math.floor(sessionIdleMs / 2)),
    loginLimit: parseLoginLimit(env(source, "DASHBOARD_LOGIN_LIMIT", "5/account,20/ip,15m")),
    inviteTtlMs: positiveDurationEnv(source, "DASHBOARD_INVITE_TTL", "72h"),
    resetTtlMs: positiveDurationEnv(source, "DASHBOARD_RESET_TTL", "1h"),
    auditRetentionMs: positiveDurationEnv(source, "AUDIT_RETENTION", "365d"),
  };
}

function requestLogsSwitch(text: string): boolean {
  if (text !== "on" && text !== "off") throw new Error(`REQUEST_LOGS must be on or off, got "${text}"`);
  return text === "on";
}

/** PAYOUT_SCHEDULE: a duration such as 30s, 1h or 24h (the default: daily), or "off". */
export function parsePayoutSchedule(text: string): number | null {
  if (text.trim() === "off") return null;
  const ms = isDuration(text) ? parseDuration(text) : 0;
  if (ms <= 0) throw new Error(`PAYOUT_SCHEDULE must be a duration longer than 0 such as 30s, 1h or 24h, or "off", got "${text}"`);
  return ms;
}

/**
 * PROCESSOR_CALL_TIMEOUT must end well inside the leases the calls are made under: past the attempt
 * lease a second attempt could start while the first still charges; past the payout lease the
 * recovery job takes the payout over mid-call.
 */
function processorCallTimeoutEnv(source: NodeJS.ProcessEnv, attemptLeaseMs: number, payoutLeaseMs: number): number {
  const timeoutMs = positiveDurationEnv(source, "PROCESSOR_CALL_TIMEOUT", "8s");
  if (timeoutMs >= attemptLeaseMs || timeoutMs >= payoutLeaseMs) {
    throw new Error(
      `PROCESSOR_CALL_TIMEOUT (${timeoutMs} ms) must be shorter than PROCESSOR_ATTEMPT_LEASE (${attemptLeaseMs} ms) and RECOVER_PAYOUTS_LEASE (${payoutLeaseMs} ms)`,
    );
  }
  return timeoutMs;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): CoreConfig {
  const databaseUrl = source.DATABASE_URL;
  if (!databaseUrl) throw new Error("DATABASE_URL is required");
  const publicBaseUrl = env(source, "PUBLIC_BASE_URL", `http://localhost:${env(source, "PORT", "4000")}`).replace(/\/+$/, "");
  const jobs = jobsEnv(source);
  const processorAttemptLeaseMs = positiveDurationEnv(source, "PROCESSOR_ATTEMPT_LEASE", "60s");
  const createBatch = batchEnv(source, "CREATE_BATCH");
  return {
    databaseUrl,
    natsUrl: source.NATS_URL || undefined,
    natsStreamReplicas: positiveIntEnv(source, "NATS_STREAM_REPLICAS", 1),
    grpcAddr: env(source, "CORE_GRPC_ADDR", "127.0.0.1:50051"),
    httpPort: intEnv(source, "CORE_HTTP_PORT", 4001),
    trpcMaxBodyBytes: positiveIntEnv(source, "TRPC_MAX_BODY_BYTES", 1024 * 1024),
    publicBaseUrl,
    embedBaseUrl: env(source, "EMBED_BASE_URL", publicBaseUrl).replace(/\/+$/, ""),
    serviceTokens: serviceTokensEnv(source),
    tls: coreTlsEnv(source, "server"),
    embedTokenSecret: embedTokenSecretEnv(source),
    embedTokenTtlMs: parseDuration(env(source, "EMBED_TOKEN_TTL", "15m")),
    paymentTtlMs: parseDuration(env(source, "PAYMENT_TTL", "24h")),
    idempotencyTtlMs: parseDuration(env(source, "IDEMPOTENCY_TTL", "24h")),
    settlementDelaysMs: settlementDelaysEnv(source),
    bankTransferConfirmAfterMs: parseDuration(env(source, "BANK_TRANSFER_CONFIRM_AFTER", "30s")),
    webhookRetryScheduleMs: parseDurationList(env(source, "WEBHOOK_RETRY_SCHEDULE", "0,5s,5m,30m,2h,5h,10h,10h")),
    webhooks: {
      endpointConcurrency: Math.max(1, intEnv(source, "WEBHOOK_ENDPOINT_CONCURRENCY", 16)),
      disableAfterMs: positiveDurationEnv(source, "WEBHOOK_DISABLE_AFTER", "5d"),
      allowLoopback: webhookAllowLoopbackEnv(source),
      replayFailedMax: Math.max(1, intEnv(source, "WEBHOOK_REPLAY_FAILED_MAX", 500)),
    },
    eventRetentionMs: positiveDurationEnv(source, "EVENT_RETENTION", "30d"),
    requestLogs: {
      retentionMs: positiveDurationEnv(source, "REQUEST_LOG_RETENTION", "30d"),
      subject: env(source, "REQUEST_LOG_SUBJECT", REQUEST_LOG_SUBJECT),
      enabled: requestLogsSwitch(env(source, "REQUEST_LOGS", "on")),
      threadHeapMb: Math.max(16, intEnv(source, "REQUEST_LOG_THREAD_HEAP", 48)),
      threadNice: threadNiceEnv(source, "REQUEST_LOG_THREAD_NICE"),
      subscribeWaitMs: durationEnv(source, "REQUEST_LOG_SUBSCRIBE_WAIT", "3s"),
    },
    linkRateLimit: parseLinkRateLimit(env(source, "LINK_RATE_LIMIT", "10/ip,120/link,60s")),
    cardSubmitLimit: parseCardSubmitLimit(env(source, "CARD_SUBMIT_LIMIT", "5/payment,20/ip,10m")),
    dashboard: dashboardEnv(source),
    apiKeys: {
      rollMaxMs: positiveDurationEnv(source, "API_KEY_ROLL_MAX", "7d"),
      lastUsedIntervalMs: positiveDurationEnv(source, "API_KEY_LAST_USED_INTERVAL", "60s"),
    },
    currencies: {
      GTQ: {
        limits: { min: minorEnv(source, "GTQ_MIN_AMOUNT", 500n), max: minorEnv(source, "GTQ_MAX_AMOUNT", 10_000_000n) },
        methods: ["card", "bank_transfer"],
        fees: {
          card: { basisPoints: percentEnv(source, "FEE_CARD_GTQ_PERCENT", "3.50"), fixed: minorEnv(source, "FEE_CARD_GTQ_FIXED", 200n), minimum: 0n },
          bank_transfer: {
            basisPoints: percentEnv(source, "FEE_BANK_TRANSFER_PERCENT", "1.00"),
            fixed: 0n,
            minimum: minorEnv(source, "FEE_BANK_TRANSFER_MIN", 300n),
          },
        },
      },
      USD: {
        limits: { min: minorEnv(source, "USD_MIN_AMOUNT", 100n), max: minorEnv(source, "USD_MAX_AMOUNT", 1_000_000n) },
        methods: ["card"],
        fees: {
          card: { basisPoints: percentEnv(source, "FEE_CARD_USD_PERCENT", "3.90"), fixed: minorEnv(source, "FEE_CARD_USD_FIXED", 30n), minimum: 0n },
        },
      },
    },
    dbPoolSize: intEnv(source, "DB_POOL_SIZE", 10),
    dbConnectTimeoutMs: positiveDurationEnv(source, "DB_CONNECT_TIMEOUT", "5s"),
    dbPoolRetryAfterSeconds: Math.ceil(positiveDurationEnv(source, "DB_POOL_RETRY_AFTER", "1s") / 1_000),
    dbIdleInTransactionTimeoutMs: positiveDurationEnv(source, "DB_IDLE_IN_TRANSACTION_TIMEOUT", "30s"),
    migrateOnStart: env(source, "MIGRATE_ON_START", "true") !== "false",
    shutdownGraceMs: parseDuration(env(source, "SHUTDOWN_GRACE", "10s")),
    jobs,
    payoutScheduleMs: parsePayoutSchedule(env(source, "PAYOUT_SCHEDULE", "24h")),
    sandbox: {
      beneficiary: {
        bank_name: env(source, "SANDBOX_BANK_NAME", "Banco Industrial (sandbox)"),
        account_name: env(source, "SANDBOX_BANK_ACCOUNT_NAME", "Paytami, S.A."),
        account_number: env(source, "SANDBOX_BANK_ACCOUNT_NUMBER", "000-123456-7"),
      },
    },
    processorAttemptLeaseMs,
    processorCallTimeoutMs: processorCallTimeoutEnv(source, processorAttemptLeaseMs, jobs.recoverPayouts.leaseMs),
    createBatch,
    refundBatch: batchEnv(source, "REFUND_BATCH"),
    linkAdmitBatch: { ...createBatch, waitMs: intEnv(source, "LINK_ADMIT_BATCH_WAIT", 0) },
    dashboardViews: {
      timeZone: timeZoneEnv(source, "DASHBOARD_TIME_ZONE", "America/Guatemala"),
      deliveryAlertWindowMs: positiveDurationEnv(source, "DASHBOARD_DELIVERY_ALERT_WINDOW", "24h"),
      exportBatch: positiveIntEnv(source, "DASHBOARD_EXPORT_BATCH", 5000),
    },
    logo: logoPolicyEnv(source),
  };
}

function timeZoneEnv(source: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const text = env(source, name, fallback);
  try {
    // PostgreSQL and Intl read the same IANA names; Intl refuses an unknown one.
    return new Intl.DateTimeFormat("en", { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    throw new Error(`${name} must be an IANA time zone such as America/Guatemala, got "${text}"`);
  }
}
