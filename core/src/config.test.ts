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
      outboxRelay: { intervalMs: 250, batch: 200, leaseMs: 30_000 },
      purgeEvents: { intervalMs: 60_000, batch: 1_000 },
      purgeLinkRateLimits: { intervalMs: 60_000, batch: 1_000 },
      sweepPayouts: { intervalMs: 5_000, batch: 100 },
      recoverPayouts: { intervalMs: 30_000, batch: 100, leaseMs: 60_000 },
    });
    expect(loadConfig(base).eventRetentionMs).toBe(30 * 86_400_000);
  });

  it("are read from <JOB>_INTERVAL, <JOB>_BATCH and OUTBOX_RELAY_LEASE", () => {
    const jobs = loadConfig({
      ...base, EXPIRE_PAYMENTS_INTERVAL: "100ms", EXPIRE_PAYMENTS_BATCH: "20", IDEMPOTENCY_PURGE_INTERVAL: "5m",
      IDEMPOTENCY_PURGE_BATCH: "5000", OUTBOX_RELAY_INTERVAL: "1s", OUTBOX_RELAY_BATCH: "50", OUTBOX_RELAY_LEASE: "2m",
      CONFIRM_BANK_TRANSFERS_INTERVAL: "2s", CONFIRM_BANK_TRANSFERS_BATCH: "30", SETTLE_PAYMENTS_INTERVAL: "10s", SETTLE_PAYMENTS_BATCH: "800",
      EVENT_PURGE_INTERVAL: "10m", EVENT_PURGE_BATCH: "100", LINK_RATE_LIMIT_PURGE_INTERVAL: "30s", LINK_RATE_LIMIT_PURGE_BATCH: "10",
      SWEEP_PAYOUTS_INTERVAL: "1s", SWEEP_PAYOUTS_BATCH: "5", RECOVER_PAYOUTS_INTERVAL: "2s", RECOVER_PAYOUTS_BATCH: "7", RECOVER_PAYOUTS_LEASE: "3m",
    }).jobs;
    expect(jobs).toEqual({
      expirePayments: { intervalMs: 100, batch: 20 },
      confirmBankTransfers: { intervalMs: 2_000, batch: 30 },
      settlePayments: { intervalMs: 10_000, batch: 800 },
      purgeIdempotencyKeys: { intervalMs: 300_000, batch: 5_000 },
      outboxRelay: { intervalMs: 1_000, batch: 50, leaseMs: 120_000 },
      purgeEvents: { intervalMs: 600_000, batch: 100 },
      purgeLinkRateLimits: { intervalMs: 30_000, batch: 10 },
      sweepPayouts: { intervalMs: 1_000, batch: 5 },
      recoverPayouts: { intervalMs: 2_000, batch: 7, leaseMs: 180_000 },
    });
    expect(loadConfig({ ...base, EVENT_RETENTION: "7d" }).eventRetentionMs).toBe(7 * 86_400_000);
  });

  it.each([
    ["EXPIRE_PAYMENTS_BATCH", "0"],
    ["EXPIRE_PAYMENTS_BATCH", "-1"],
    ["OUTBOX_RELAY_INTERVAL", "0ms"],
    ["OUTBOX_RELAY_LEASE", "soon"],
    ["SETTLE_PAYMENTS_BATCH", "0"],
    ["SETTLEMENT_DELAYS", "60s,300s"],
    ["EVENT_RETENTION", "0d"],
    ["EVENT_PURGE_BATCH", "0"],
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
