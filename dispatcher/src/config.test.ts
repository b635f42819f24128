import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

const base = { PAYTAMI_DISPATCHER_TOKEN: "dispatcher-token-0123456789abcdefghij" };

// The core reads it with the same function (proto/runtime/env.ts): core/src/config.test.ts.
describe("WEBHOOK_ALLOW_LOOPBACK", () => {
  it("is off unless set to true", () => {
    expect(loadConfig(base).allowLoopback).toBe(false);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_LOOPBACK: "true" }).allowLoopback).toBe(true);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_LOOPBACK: "false" }).allowLoopback).toBe(false);
  });

  it.each(["yes", "1", "TRUE", "on"])("refuses %s rather than guess", (value) => {
    expect(() => loadConfig({ ...base, WEBHOOK_ALLOW_LOOPBACK: value })).toThrow("WEBHOOK_ALLOW_LOOPBACK");
  });
});
