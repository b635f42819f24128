import { describe, expect, test } from "vitest";
import { parseDurationList } from "./runtime/env.ts";
import { parseRetryAfter, retryDelayMs } from "./webhook-retry.ts";

const schedule = parseDurationList("0,5s,5m,30m,2h,5h,10h,10h");

describe("webhook retry schedule", () => {
  test("the default schedule is eight attempts, the first right away", () => {
    expect(schedule).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(retryDelayMs(schedule, 0, undefined, () => 0.5)).toBe(0);
  });

  test("each later delay is jittered within ±20 %", () => {
    expect(retryDelayMs(schedule, 1, undefined, () => 0)).toBe(4_000);
    expect(retryDelayMs(schedule, 1, undefined, () => 0.999999)).toBe(6_000);
    expect(retryDelayMs(schedule, 2, undefined, () => 0.5)).toBe(300_000);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelayMs(schedule, 3, undefined)!;
      expect(delay).toBeGreaterThanOrEqual(1_440_000);
      expect(delay).toBeLessThanOrEqual(2_160_000);
    }
  });

  test("after the last attempt there is no next one", () => {
    expect(retryDelayMs(schedule, 7, undefined, () => 0.5)).toBe(36_000_000);
    expect(retryDelayMs(schedule, 8, undefined)).toBeNull();
    expect(retryDelayMs(schedule, 9, 1_000)).toBeNull();
  });

  test("Retry-After is honoured within [delay, 2 × delay]", () => {
    expect(retryDelayMs(schedule, 1, 7_000)).toBe(7_000);
    expect(retryDelayMs(schedule, 1, 1_000)).toBe(5_000);
    expect(retryDelayMs(schedule, 1, 60_000)).toBe(10_000);
  });

  test("Retry-After is delay-seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
