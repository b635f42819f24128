import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

const base = { DATABASE_URL: "postgres://localhost/x", EMBED_TOKEN_SECRET: "s".repeat(64) };

describe("job policies", () => {
  it("default to the intervals and batch sizes the jobs always had", () => {
    expect(loadConfig(base).jobs).toEqual({
      expirePayments: { intervalMs: 5_000, batch: 200 },
      confirmBankTransfers: { intervalMs: 5_000, batch: 200 },
      settlePayments: { intervalMs: 5_000, batch: 5_000 },
      purgeIdempotencyKeys: { intervalMs: 60_000, batch: 1_000 },
      outboxRelay: { intervalMs: 250, batch: 200, leaseMs: 30_000, gatherMs: 20 },
      purgeEvents: { intervalMs: 60_000, batch: 1_000 },
      purgeLinkRateLimits: { intervalMs: 60_000, batch: 1_000 },
      purgeAuditLog: { intervalMs: 600_000, batch: 1_000 },
      purgeRequestLogs: { intervalMs: 60_000, batch: 5_000 },
      sweepPayouts: { intervalMs: 5_000, batch: 100 },
      recoverPayouts: { intervalMs: 30_000, batch: 100, leaseMs: 60_000 },
      failureReportMs: 30_000,
    });
    expect(loadConfig(base).eventRetentionMs).toBe(30 * 86_400_000);
    expect(loadConfig(base).requestLogs).toEqual({
      retentionMs: 30 * 86_400_000,
      subject: "paytami.request_logs",
      enabled: true,
      threadHeapMb: 48,
      threadNice: 19,
      subscribeWaitMs: 3_000,
    });
  });

  it("are read from <JOB>_INTERVAL, <JOB>_BATCH, OUTBOX_RELAY_LEASE and OUTBOX_RELAY_GATHER", () => {
    const jobs = loadConfig({
      ...base,
      EXPIRE_PAYMENTS_INTERVAL: "100ms",
      EXPIRE_PAYMENTS_BATCH: "20",
      IDEMPOTENCY_PURGE_INTERVAL: "5m",
      IDEMPOTENCY_PURGE_BATCH: "5000",
      OUTBOX_RELAY_INTERVAL: "1s",
      OUTBOX_RELAY_BATCH: "50",
      OUTBOX_RELAY_LEASE: "2m",
      OUTBOX_RELAY_GATHER: "0ms",
      CONFIRM_BANK_TRANSFERS_INTERVAL: "2s",
      CONFIRM_BANK_TRANSFERS_BATCH: "30",
      SETTLE_PAYMENTS_INTERVAL: "10s",
      SETTLE_PAYMENTS_BATCH: "800",
      EVENT_PURGE_INTERVAL: "10m",
      EVENT_PURGE_BATCH: "100",
      LINK_RATE_LIMIT_PURGE_INTERVAL: "30s",
      LINK_RATE_LIMIT_PURGE_BATCH: "10",
      AUDIT_PURGE_INTERVAL: "1m",
      AUDIT_PURGE_BATCH: "50",
      REQUEST_LOG_PURGE_INTERVAL: "5m",
      REQUEST_LOG_PURGE_BATCH: "200",
      SWEEP_PAYOUTS_INTERVAL: "1s",
      SWEEP_PAYOUTS_BATCH: "5",
      RECOVER_PAYOUTS_INTERVAL: "2s",
      RECOVER_PAYOUTS_BATCH: "7",
      RECOVER_PAYOUTS_LEASE: "3m",
      JOB_FAILURE_LOG_INTERVAL: "2m",
    }).jobs;
    expect(jobs).toEqual({
      expirePayments: { intervalMs: 100, batch: 20 },
      confirmBankTransfers: { intervalMs: 2_000, batch: 30 },
      settlePayments: { intervalMs: 10_000, batch: 800 },
      purgeIdempotencyKeys: { intervalMs: 300_000, batch: 5_000 },
      outboxRelay: { intervalMs: 1_000, batch: 50, leaseMs: 120_000, gatherMs: 0 },
      purgeEvents: { intervalMs: 600_000, batch: 100 },
      purgeLinkRateLimits: { intervalMs: 30_000, batch: 10 },
      purgeAuditLog: { intervalMs: 60_000, batch: 50 },
      purgeRequestLogs: { intervalMs: 300_000, batch: 200 },
      sweepPayouts: { intervalMs: 1_000, batch: 5 },
      recoverPayouts: { intervalMs: 2_000, batch: 7, leaseMs: 180_000 },
      failureReportMs: 120_000,
    });
    expect(loadConfig({ ...base, EVENT_RETENTION: "7d" }).eventRetentionMs).toBe(7 * 86_400_000);
    expect(
      loadConfig({
        ...base,
        REQUEST_LOG_RETENTION: "7d",
        REQUEST_LOG_SUBJECT: "x.logs",
        REQUEST_LOGS: "off",
        REQUEST_LOG_THREAD_HEAP: "96",
        REQUEST_LOG_THREAD_NICE: "0",
        REQUEST_LOG_SUBSCRIBE_WAIT: "500ms",
      }).requestLogs,
    ).toEqual({
      retentionMs: 7 * 86_400_000,
      subject: "x.logs",
      enabled: false,
      threadHeapMb: 96,
      threadNice: 0,
      subscribeWaitMs: 500,
    });
  });

  it.each([
    ["EXPIRE_PAYMENTS_BATCH", "0"],
    ["EXPIRE_PAYMENTS_BATCH", "-1"],
    ["OUTBOX_RELAY_INTERVAL", "0ms"],
    ["OUTBOX_RELAY_LEASE", "soon"],
    ["OUTBOX_RELAY_GATHER", "-5ms"],
    ["OUTBOX_RELAY_GATHER", "20"],
    ["JOB_FAILURE_LOG_INTERVAL", "0s"],
    ["REQUEST_LOG_SUBSCRIBE_WAIT", "soon"],
    ["SETTLE_PAYMENTS_BATCH", "0"],
    ["SETTLEMENT_DELAYS", "60s,300s"],
    ["EVENT_RETENTION", "0d"],
    ["EVENT_PURGE_BATCH", "0"],
    ["REQUEST_LOG_RETENTION", "0d"],
    ["REQUEST_LOGS", "maybe"],
    ["LINK_RATE_LIMIT_PURGE_BATCH", "0"],
    ["SWEEP_PAYOUTS_BATCH", "0"],
    ["RECOVER_PAYOUTS_LEASE", "0s"],
    ["PAYOUT_SCHEDULE", "daily"],
    ["PAYOUT_SCHEDULE", "0s"],
  ])("refuse %s=%s", (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(name);
  });
});

describe("PAYOUT_SCHEDULE", () => {
  it("is daily by default, any duration, or off", () => {
    expect(loadConfig(base).payoutScheduleMs).toBe(86_400_000);
    expect(loadConfig({ ...base, PAYOUT_SCHEDULE: "30s" }).payoutScheduleMs).toBe(30_000);
    expect(loadConfig({ ...base, PAYOUT_SCHEDULE: "1h" }).payoutScheduleMs).toBe(3_600_000);
    expect(loadConfig({ ...base, PAYOUT_SCHEDULE: "off" }).payoutScheduleMs).toBeNull();
  });
});

describe("LINK_RATE_LIMIT and CARD_SUBMIT_LIMIT", () => {
  it("default to 10/ip,120/link,60s and 5/payment,20/ip,10m", () => {
    expect(loadConfig(base).linkRateLimit).toEqual({ perIp: 10, perLink: 120, windowMs: 60_000 });
    expect(loadConfig(base).cardSubmitLimit).toEqual({ perPayment: 5, perIp: 20, windowMs: 600_000 });
  });

  it("take their parts in any order, or off", () => {
    expect(loadConfig({ ...base, LINK_RATE_LIMIT: " 30s , 7/link, 3 / ip" }).linkRateLimit).toEqual({ perIp: 3, perLink: 7, windowMs: 30_000 });
    expect(loadConfig({ ...base, CARD_SUBMIT_LIMIT: "1h,50/ip,3/payment" }).cardSubmitLimit).toEqual({ perPayment: 3, perIp: 50, windowMs: 3_600_000 });
    expect(loadConfig({ ...base, LINK_RATE_LIMIT: "off", CARD_SUBMIT_LIMIT: "off" })).toMatchObject({ linkRateLimit: null, cardSubmitLimit: null });
  });

  it.each([
    ["LINK_RATE_LIMIT", "10/ip,60s"],
    ["LINK_RATE_LIMIT", "10/ip,120/payment,60s"],
    ["LINK_RATE_LIMIT", "0/ip,120/link,60s"],
    ["CARD_SUBMIT_LIMIT", "5/payment,20/ip,500ms"],
    ["CARD_SUBMIT_LIMIT", "5/payment,20/ip,10m,1h"],
    ["CARD_SUBMIT_LIMIT", "5/payment,5/payment,10m"],
  ])("refuse %s=%s", (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(name);
  });
});

describe("service tokens", () => {
  const strong = (c: string) => `${c}${"0123456789abcdefghijklmnopqrstuvwxyz"}`;

  it("gives each process its own configured token, and an unknowable one to a process left unset", () => {
    const tokens = loadConfig({ ...base, PAYTAMI_INTERNAL_TOKEN: strong("o"), PAYTAMI_FACADE_TOKEN: strong("f") }).serviceTokens;
    expect(tokens.operator).toBe(strong("o"));
    expect(tokens.facade).toBe(strong("f"));
    expect(tokens.dispatcher).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig(base).serviceTokens.dispatcher).not.toBe(tokens.dispatcher);
  });

  it.each([
    ["31 characters", "a1".repeat(15) + "b"],
    ["one character repeated", "z".repeat(64)],
    ["one emoji repeated", "🔑".repeat(40)],
  ])("refuses a token of %s, naming the variable", (_, token) => {
    for (const name of ["PAYTAMI_INTERNAL_TOKEN", "PAYTAMI_FACADE_TOKEN", "PAYTAMI_DISPATCHER_TOKEN"]) {
      expect(() => loadConfig({ ...base, [name]: token })).toThrow(`${name} is too weak: it must be at least 32 characters and not one character repeated`);
    }
  });

  it("accepts exactly 32 characters", () => {
    expect(loadConfig({ ...base, PAYTAMI_FACADE_TOKEN: "ab".repeat(16) }).serviceTokens.facade).toBe("ab".repeat(16));
  });

  it("refuses one token for two processes", () => {
    expect(() => loadConfig({ ...base, PAYTAMI_INTERNAL_TOKEN: strong("x"), PAYTAMI_DISPATCHER_TOKEN: strong("x") })).toThrow(
      "PAYTAMI_DISPATCHER_TOKEN is the same as PAYTAMI_INTERNAL_TOKEN: each process needs a credential of its own",
    );
  });
});

// The dispatcher reads it with the same function (proto/runtime/env.ts): dispatcher/src/config.test.ts.
describe("WEBHOOK_ALLOW_LOOPBACK", () => {
  it("is off unless set to true", () => {
    expect(loadConfig(base).webhooks.allowLoopback).toBe(false);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_LOOPBACK: "true" }).webhooks.allowLoopback).toBe(true);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_LOOPBACK: "false" }).webhooks.allowLoopback).toBe(false);
  });

  it.each(["yes", "1", "TRUE", "on"])("refuses %s rather than guess", (value) => {
    expect(() => loadConfig({ ...base, WEBHOOK_ALLOW_LOOPBACK: value })).toThrow("WEBHOOK_ALLOW_LOOPBACK");
  });
});

describe("TRPC_MAX_BODY_BYTES", () => {
  it("is 1 MiB by default, any positive byte count", () => {
    expect(loadConfig(base).trpcMaxBodyBytes).toBe(1_048_576);
    expect(loadConfig({ ...base, TRPC_MAX_BODY_BYTES: "65536" }).trpcMaxBodyBytes).toBe(65_536);
  });

  it.each(["0", "-1", "1MiB", "99999999999999999999"])("refuses %s", (value) => {
    expect(() => loadConfig({ ...base, TRPC_MAX_BODY_BYTES: value })).toThrow("TRPC_MAX_BODY_BYTES");
  });
});

describe("PROCESSOR_CALL_TIMEOUT", () => {
  it("is 8s by default, inside the attempt lease and the payout lease", () => {
    expect(loadConfig(base).processorCallTimeoutMs).toBe(8_000);
    expect(loadConfig({ ...base, PROCESSOR_CALL_TIMEOUT: "500ms" }).processorCallTimeoutMs).toBe(500);
  });

  it.each([
    [{ PROCESSOR_CALL_TIMEOUT: "60s" }, "PROCESSOR_ATTEMPT_LEASE"],
    [{ PROCESSOR_CALL_TIMEOUT: "2m" }, "PROCESSOR_ATTEMPT_LEASE"],
    [{ PROCESSOR_CALL_TIMEOUT: "10s", PROCESSOR_ATTEMPT_LEASE: "10s" }, "PROCESSOR_ATTEMPT_LEASE"],
    [{ PROCESSOR_CALL_TIMEOUT: "30s", RECOVER_PAYOUTS_LEASE: "20s" }, "RECOVER_PAYOUTS_LEASE"],
    [{ PROCESSOR_CALL_TIMEOUT: "0s" }, "PROCESSOR_CALL_TIMEOUT"],
    [{ PROCESSOR_CALL_TIMEOUT: "never" }, "PROCESSOR_CALL_TIMEOUT"],
  ])("refuses %j at start-up", (env, named) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(named);
  });
});

describe("dashboard views", () => {
  it("counts days in America/Guatemala, warns of deliveries failing in the last 24h, exports 5000 rows a query, by default", () => {
    expect(loadConfig(base).dashboardViews).toEqual({ timeZone: "America/Guatemala", deliveryAlertWindowMs: 86_400_000, exportBatch: 5000 });
    expect(loadConfig({ ...base, DASHBOARD_TIME_ZONE: "America/El_Salvador", DASHBOARD_EXPORT_BATCH: "500" }).dashboardViews).toMatchObject({
      timeZone: "America/El_Salvador",
      exportBatch: 500,
    });
  });

  it.each([
    [{ DASHBOARD_TIME_ZONE: "Mars/Olympus" }, "DASHBOARD_TIME_ZONE"],
    [{ DASHBOARD_EXPORT_BATCH: "0" }, "DASHBOARD_EXPORT_BATCH"],
    [{ DASHBOARD_DELIVERY_ALERT_WINDOW: "soon" }, "DASHBOARD_DELIVERY_ALERT_WINDOW"],
  ])("refuses %j at start-up", (env, named) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(named);
  });
});

describe("dashboard policies", () => {
  it("default to DESIGN §5's: 30m idle, 12h absolute, 5 failures per account and 20 per IP in 15m, 72h invites, 1h resets, 365d audit", () => {
    expect(loadConfig(base).dashboard).toEqual({
      sessionIdleMs: 30 * 60_000,
      sessionMaxMs: 12 * 3_600_000,
      touchEveryMs: 60_000,
      loginLimit: { perAccount: 5, perIp: 20, windowMs: 15 * 60_000 },
      inviteTtlMs: 72 * 3_600_000,
      resetTtlMs: 3_600_000,
      auditRetentionMs: 365 * 86_400_000,
    });
  });

  it("are read from the environment; a short idle timeout writes last-seen more often", () => {
    const dashboard = loadConfig({
      ...base,
      DASHBOARD_SESSION_IDLE: "4s",
      DASHBOARD_SESSION_MAX: "10s",
      DASHBOARD_LOGIN_LIMIT: "3/account, 7/ip, 1m",
      DASHBOARD_INVITE_TTL: "1h",
      DASHBOARD_RESET_TTL: "5m",
      AUDIT_RETENTION: "30d",
    }).dashboard;
    expect(dashboard).toEqual({
      sessionIdleMs: 4_000,
      sessionMaxMs: 10_000,
      touchEveryMs: 2_000,
      loginLimit: { perAccount: 3, perIp: 7, windowMs: 60_000 },
      inviteTtlMs: 3_600_000,
      resetTtlMs: 300_000,
      auditRetentionMs: 30 * 86_400_000,
    });
    expect(loadConfig({ ...base, DASHBOARD_LOGIN_LIMIT: "off" }).dashboard.loginLimit).toBeNull();
  });

  it.each([
    ["DASHBOARD_SESSION_IDLE", "0s"],
    ["DASHBOARD_SESSION_MAX", "forever"],
    ["DASHBOARD_LOGIN_LIMIT", "5/account,15m"],
    ["AUDIT_RETENTION", "0d"],
  ])("refuse %s=%s", (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(name);
  });

  it("refuse an idle timeout longer than the absolute one", () => {
    expect(() => loadConfig({ ...base, DASHBOARD_SESSION_IDLE: "13h" })).toThrow("DASHBOARD_SESSION_IDLE");
  });
});

describe("group commit (CREATE_BATCH)", () => {
  it("is on, 64 requests per statement at most, waiting 1 ms when idle, by default", () => {
    expect(loadConfig(base).createBatch).toEqual({ on: true, max: 64, waitMs: 1 });
  });

  it("reads off, a size and no wait, and refuses anything but on/off and a positive size", () => {
    expect(loadConfig({ ...base, CREATE_BATCH: "off", CREATE_BATCH_MAX: "8", CREATE_BATCH_WAIT: "0" }).createBatch).toEqual({ on: false, max: 8, waitMs: 0 });
    expect(() => loadConfig({ ...base, CREATE_BATCH: "yes" })).toThrow("CREATE_BATCH");
    expect(() => loadConfig({ ...base, CREATE_BATCH_MAX: "0" })).toThrow("CREATE_BATCH_MAX");
  });
});

describe("group commit of the link pay limit's count (LINK_ADMIT_BATCH_WAIT)", () => {
  it("follows CREATE_BATCH's switch and size and does not wait when idle, by default", () => {
    expect(loadConfig(base).linkAdmitBatch).toEqual({ on: true, max: 64, waitMs: 0 });
    expect(loadConfig({ ...base, CREATE_BATCH: "off", CREATE_BATCH_MAX: "8", CREATE_BATCH_WAIT: "3" }).linkAdmitBatch).toEqual({
      on: false,
      max: 8,
      waitMs: 0,
    });
  });

  it("reads its own wait, leaving creation's alone, and refuses anything but a non-negative integer", () => {
    const config = loadConfig({ ...base, LINK_ADMIT_BATCH_WAIT: "2" });
    expect(config.linkAdmitBatch).toEqual({ on: true, max: 64, waitMs: 2 });
    expect(config.createBatch).toEqual({ on: true, max: 64, waitMs: 1 });
    expect(() => loadConfig({ ...base, LINK_ADMIT_BATCH_WAIT: "-1" })).toThrow("LINK_ADMIT_BATCH_WAIT");
    expect(() => loadConfig({ ...base, LINK_ADMIT_BATCH_WAIT: "1ms" })).toThrow("LINK_ADMIT_BATCH_WAIT");
  });
});

describe("group commit of refunds (REFUND_BATCH)", () => {
  it("is on, 64 requests per batch at most, waiting 1 ms when idle, by default", () => {
    expect(loadConfig(base).refundBatch).toEqual({ on: true, max: 64, waitMs: 1 });
  });

  it("reads its own switches, independent of CREATE_BATCH's, and refuses anything but on/off and a positive size", () => {
    const config = loadConfig({ ...base, REFUND_BATCH: "off", REFUND_BATCH_MAX: "8", REFUND_BATCH_WAIT: "0" });
    expect(config.refundBatch).toEqual({ on: false, max: 8, waitMs: 0 });
    expect(config.createBatch).toEqual({ on: true, max: 64, waitMs: 1 });
    expect(() => loadConfig({ ...base, REFUND_BATCH: "yes" })).toThrow("REFUND_BATCH");
    expect(() => loadConfig({ ...base, REFUND_BATCH_MAX: "0" })).toThrow("REFUND_BATCH_MAX");
  });
});

describe("API keys (API_KEY_ROLL_MAX, API_KEY_LAST_USED_INTERVAL)", () => {
  it("let a rolled key keep working up to 7 days and write last-used once a minute, by default", () => {
    expect(loadConfig(base).apiKeys).toEqual({ rollMaxMs: 7 * 86_400_000, lastUsedIntervalMs: 60_000 });
  });

  it("are read from the environment and refuse anything but a positive duration", () => {
    expect(loadConfig({ ...base, API_KEY_ROLL_MAX: "24h", API_KEY_LAST_USED_INTERVAL: "5m" }).apiKeys).toEqual({
      rollMaxMs: 86_400_000,
      lastUsedIntervalMs: 300_000,
    });
    expect(() => loadConfig({ ...base, API_KEY_ROLL_MAX: "0" })).toThrow("API_KEY_ROLL_MAX");
    expect(() => loadConfig({ ...base, API_KEY_LAST_USED_INTERVAL: "often" })).toThrow("API_KEY_LAST_USED_INTERVAL");
  });
});

describe("logo policy", () => {
  it("accepts PNG and SVG up to 256 KB and 4096 px a side by default", () => {
    expect(loadConfig(base).logo).toEqual({ maxBytes: 262_144, maxPixels: 4096, types: ["image/png", "image/svg+xml"] });
    expect(loadConfig({ ...base, LOGO_TYPES: "image/png", LOGO_MAX_BYTES: "1000" }).logo).toMatchObject({ maxBytes: 1000, types: ["image/png"] });
  });

  it.each([
    [{ LOGO_TYPES: "image/gif" }, "LOGO_TYPES"],
    [{ LOGO_MAX_BYTES: "0" }, "LOGO_MAX_BYTES"],
  ])("refuses %o", (env, named) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(named);
  });
});

describe("DB_IDLE_IN_TRANSACTION_TIMEOUT", () => {
  it("is how long a core's transaction may wait for its next statement before PostgreSQL ends the session, 30 s by default", () => {
    expect(loadConfig(base).dbIdleInTransactionTimeoutMs).toBe(30_000);
    expect(loadConfig({ ...base, DB_IDLE_IN_TRANSACTION_TIMEOUT: "2m" }).dbIdleInTransactionTimeoutMs).toBe(120_000);
    expect(() => loadConfig({ ...base, DB_IDLE_IN_TRANSACTION_TIMEOUT: "0s" })).toThrow("DB_IDLE_IN_TRANSACTION_TIMEOUT");
    expect(() => loadConfig({ ...base, DB_IDLE_IN_TRANSACTION_TIMEOUT: "soon" })).toThrow("DB_IDLE_IN_TRANSACTION_TIMEOUT");
  });
});

describe("DB_POOL_RETRY_AFTER", () => {
  it("is the Retry-After of a saturated pool's 503, in whole seconds (rounded up), 1 s by default", () => {
    expect(loadConfig(base).dbPoolRetryAfterSeconds).toBe(1);
    expect(loadConfig({ ...base, DB_POOL_RETRY_AFTER: "5s" }).dbPoolRetryAfterSeconds).toBe(5);
    expect(loadConfig({ ...base, DB_POOL_RETRY_AFTER: "1500ms" }).dbPoolRetryAfterSeconds).toBe(2);
    expect(() => loadConfig({ ...base, DB_POOL_RETRY_AFTER: "0s" })).toThrow("DB_POOL_RETRY_AFTER");
  });
});
