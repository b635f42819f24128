import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

const base = { PAYTAMI_FACADE_TOKEN: "facade-token-0123456789abcdefghijk" };

describe("facade config", () => {
  it("records requests when NATS_URL is set, with the default batch, flush, buffer and body cap; REQUEST_LOGS=off turns it off", () => {
    expect(loadConfig(base).requestLogs).toBeNull();
    expect(loadConfig({ ...base, NATS_URL: "nats://127.0.0.1:4222" }).requestLogs).toEqual({
      subject: "paytami.request_logs",
      batchSize: 500,
      flushMs: 250,
      maxEntries: 10_000,
      bodyCapBytes: 8_192,
      threadHeapMb: 32,
      threadNice: 19,
      handoffBatch: 64,
      handoffMs: 10,
    });
    expect(loadConfig({ ...base, NATS_URL: "nats://x:4222", REQUEST_LOGS: "off" }).requestLogs).toBeNull();
    expect(
      loadConfig({
        ...base,
        NATS_URL: "nats://x:4222",
        REQUEST_LOG_SUBJECT: "a.b",
        REQUEST_LOG_BATCH: "10",
        REQUEST_LOG_FLUSH: "1s",
        REQUEST_LOG_BUFFER: "100",
        REQUEST_LOG_BODY_CAP: "512",
        REQUEST_LOG_THREAD_HEAP: "64",
        REQUEST_LOG_THREAD_NICE: "5",
      }).requestLogs,
    ).toEqual({
      subject: "a.b",
      batchSize: 10,
      flushMs: 1_000,
      maxEntries: 100,
      bodyCapBytes: 512,
      threadHeapMb: 64,
      threadNice: 5,
      handoffBatch: 10,
      handoffMs: 10,
    });
    expect(() => loadConfig({ ...base, REQUEST_LOGS: "maybe" })).toThrow(/REQUEST_LOGS must be on or off/);
    expect(() => loadConfig({ ...base, NATS_URL: "nats://x:4222", REQUEST_LOG_BUFFER: "0" })).toThrow(/REQUEST_LOG_BUFFER/);
    expect(() => loadConfig({ ...base, NATS_URL: "nats://x:4222", REQUEST_LOG_THREAD_NICE: "20" })).toThrow(/REQUEST_LOG_THREAD_NICE/);
  });

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
    const local = loadConfig({ ...base, CORE_GRPC_ADDR: "localhost:50051", CORE_HTTP_PORT: "4101" });
    expect(local.coreHttpUrl).toBe("http://127.0.0.1:4101");
    expect(local.dashboard).toMatchObject({ cookieName: "paytami_session", secureCookie: false, publicOrigin: "http://localhost:4000" });
    expect(local.dashboard.dir).toMatch(/\/dist\/dashboard$/);
    const remote = loadConfig({ ...base, CORE_GRPC_ADDR: "core.internal:50051", PUBLIC_BASE_URL: "https://pay.example.gt/" });
    expect(remote.coreHttpUrl).toBe("http://core.internal:4001");
    expect(remote.dashboard).toMatchObject({ cookieName: "__Host-paytami_session", secureCookie: true, publicOrigin: "https://pay.example.gt" });
    expect(loadConfig({ ...base, CORE_HTTP_URL: "http://10.0.0.5:9000/" }).coreHttpUrl).toBe("http://10.0.0.5:9000");
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
