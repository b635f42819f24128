import { describe, expect, test } from "vitest";
import { parseRetryAfter, retryDelayMs } from "./retry.ts";

describe("retryDelayMs", () => {
  test("waits at least what Retry-After asks, plus under 250 ms of jitter", () => {
    expect(retryDelayMs(0, 3, () => 0)).toBe(3000);
    expect(retryDelayMs(5, 3, () => 0.999)).toBe(3249);
  });

  test("without Retry-After: exponential from 500 ms, capped at 8 s, half of it random", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => retryDelayMs(attempt, undefined, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => retryDelayMs(attempt, undefined, () => 0.999999))).toEqual([499, 999, 1999, 3999, 7999, 7999, 7999]);
  });
});

describe("parseRetryAfter", () => {
  test("seconds, an HTTP date, or nothing", () => {
    const now = Date.parse("2026-11-25T10:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Wed, 25 Nov 2026 10:00:05 GMT", now)).toBe(5);
    expect(parseRetryAfter("Wed, 25 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-3", now)).toBeUndefined();
  });
});
