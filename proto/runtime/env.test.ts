import { describe, expect, it } from "vitest";
import { isDuration, parseDuration, parseDurationList, serviceTokenEnv, threadNiceEnv, webhookAllowLoopbackEnv } from "./env.ts";

describe("durations", () => {
  it("read ms, s, m, h and d; a bare 0 only in a list", () => {
    expect([parseDuration("500ms"), parseDuration(" 30s "), parseDuration("5m"), parseDuration("24h"), parseDuration("7d")]).toEqual([
      500, 30_000, 300_000, 86_400_000, 604_800_000,
    ]);
    expect(parseDurationList("0,5s, 5m")).toEqual([0, 5_000, 300_000]);
    expect(() => parseDuration("0")).toThrow('invalid duration "0"');
  });

  it.each(["", "5", "1.5s", "-5s", "5 s", "5sec", "5S"])("refuse %j", (text) => {
    expect(isDuration(text)).toBe(false);
    expect(() => parseDuration(text)).toThrow("invalid duration");
  });
});

describe("a process credential", () => {
  const NAME = "PAYTAMI_FACADE_TOKEN";

  it("is undefined when unset or empty, else the value", () => {
    expect(serviceTokenEnv({}, NAME)).toBeUndefined();
    expect(serviceTokenEnv({ [NAME]: "" }, NAME)).toBeUndefined();
    expect(serviceTokenEnv({ [NAME]: "t".repeat(31) + "u" }, NAME)).toBe("t".repeat(31) + "u");
  });

  it.each([
    ["31 characters", "abcdefghijklmnopqrstuvwxyz01234"],
    ["one repeated character", "x".repeat(64)],
  ])("is refused when it is %s", (_, token) => {
    expect(() => serviceTokenEnv({ [NAME]: token }, NAME)).toThrow(`${NAME} is too weak`);
  });
});

describe("WEBHOOK_ALLOW_LOOPBACK", () => {
  it("is true or false, false when unset or empty, and nothing else", () => {
    expect(webhookAllowLoopbackEnv({})).toBe(false);
    expect(webhookAllowLoopbackEnv({ WEBHOOK_ALLOW_LOOPBACK: "" })).toBe(false);
    expect(webhookAllowLoopbackEnv({ WEBHOOK_ALLOW_LOOPBACK: "true" })).toBe(true);
    expect(() => webhookAllowLoopbackEnv({ WEBHOOK_ALLOW_LOOPBACK: "yes" })).toThrow('WEBHOOK_ALLOW_LOOPBACK must be "true" or "false", got "yes"');
  });
});

describe("a background thread's nice value", () => {
  it("is 19 unless set, 0 to 19, anything else refused", () => {
    expect(threadNiceEnv({}, "REQUEST_LOG_THREAD_NICE")).toBe(19);
    expect(threadNiceEnv({ REQUEST_LOG_THREAD_NICE: "" }, "REQUEST_LOG_THREAD_NICE")).toBe(19);
    expect(threadNiceEnv({ REQUEST_LOG_THREAD_NICE: "0" }, "REQUEST_LOG_THREAD_NICE")).toBe(0);
    expect(threadNiceEnv({ REQUEST_LOG_THREAD_NICE: " 10 " }, "REQUEST_LOG_THREAD_NICE")).toBe(10);
    for (const bad of ["20", "-1", "1.5", "low", "019"]) {
      expect(() => threadNiceEnv({ REQUEST_LOG_THREAD_NICE: bad }, "REQUEST_LOG_THREAD_NICE")).toThrow(
        `REQUEST_LOG_THREAD_NICE must be a whole number from 0 (no change) to 19 (lowest priority), got "${bad}"`,
      );
    }
  });
});
