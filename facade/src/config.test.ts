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

  it("finds the core's HTTP port beside its gRPC address, and names the session cookie after PUBLIC_BASE_URL's scheme", () => {
    const local = loadConfig({ ...base, CORE_GRPC_ADDR: "localhost:50051", CORE_HTTP_PORT: "4101" }).dashboard;
    expect(local).toMatchObject({
      coreHttpUrl: "http://127.0.0.1:4101",
      cookieName: "paytami_session",
      secureCookie: false,
      publicOrigin: "http://localhost:4000",
    });
    expect(local.dir).toMatch(/\/dist\/dashboard$/);
    const remote = loadConfig({ ...base, CORE_GRPC_ADDR: "core.internal:50051", PUBLIC_BASE_URL: "https://pay.example.gt/" }).dashboard;
    expect(remote).toMatchObject({
      coreHttpUrl: "http://core.internal:4001",
      cookieName: "__Host-paytami_session",
      secureCookie: true,
      publicOrigin: "https://pay.example.gt",
    });
    expect(loadConfig({ ...base, CORE_HTTP_URL: "http://10.0.0.5:9000/" }).dashboard.coreHttpUrl).toBe("http://10.0.0.5:9000");
  });

  it.each([
    ["DASHBOARD_BODY_LIMIT_BYTES", "0"],
    ["TRUST_PROXY", "yes"],
    ["PUBLIC_ROUTE_LIMIT", "0/ip,60s"],
    ["PUBLIC_ROUTE_LIMIT", "300/ip"],
    ["PUBLIC_ROUTE_LIMIT", "300/ip,500ms"],
    ["PUBLIC_ROUTE_LIMIT", "300/link,60s"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(name);
  });

  it("finds the core's HTTP port (dashboard exports) beside its gRPC address unless CORE_HTTP_URL names it", () => {
    expect(loadConfig(base).coreHttpUrl).toBe("http://127.0.0.1:4001");
    expect(loadConfig({ ...base, CORE_GRPC_ADDR: "core.internal:50051", CORE_HTTP_PORT: "9001" }).coreHttpUrl).toBe("http://core.internal:9001");
    expect(loadConfig({ ...base, CORE_GRPC_ADDR: "[::1]:50051" }).coreHttpUrl).toBe("http://[::1]:4001");
    expect(loadConfig({ ...base, CORE_HTTP_URL: "https://core.example:8443/" }).coreHttpUrl).toBe("https://core.example:8443");
  });
});
