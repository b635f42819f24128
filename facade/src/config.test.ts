import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

const base = { PAYTAMI_FACADE_TOKEN: "facade-token-0123456789abcdefghijk" };

describe("facade config", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY names proxies; limits public id routes to 300/ip per 60s", () => {
    const config = loadConfig(base);
    expect(config.trustProxy).toEqual({ kind: "none" });
    expect(config.publicRouteLimit).toEqual({ perIp: 300, windowMs: 60_000 });
  });

  it("reads TRUST_PROXY and PUBLIC_ROUTE_LIMIT", () => {
    const config = loadConfig({ ...base, TRUST_PROXY: "true", PUBLIC_ROUTE_LIMIT: "1m, 50/ip" });
    expect(config.trustProxy).toEqual({ kind: "hops", hops: 1 });
    expect(config.publicRouteLimit).toEqual({ perIp: 50, windowMs: 60_000 });
    expect(loadConfig({ ...base, PUBLIC_ROUTE_LIMIT: "off" }).publicRouteLimit).toBeNull();
  });

  it.each([
    ["TRUST_PROXY", "yes"],
    ["PUBLIC_ROUTE_LIMIT", "0/ip,60s"],
    ["PUBLIC_ROUTE_LIMIT", "300/ip"],
    ["PUBLIC_ROUTE_LIMIT", "300/ip,500ms"],
    ["PUBLIC_ROUTE_LIMIT", "300/link,60s"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(name);
  });
});
