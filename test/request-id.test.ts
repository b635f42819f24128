// Request ids and logging hygiene (issue: "Operations basics"): every response
// carries Request-Id; a sane client-sent Request-Id is echoed; the id travels to the
// core's logs; API keys never appear in logs. Also /healthz on facade and core.

import { randomUUID } from "node:crypto";
import { credentials, Metadata } from "@grpc/grpc-js";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { HealthCheckResponse_ServingStatus, HealthClient, type HealthCheckResponse } from "../proto/gen/grpc/health/v1/health.ts";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { randomPaymentId, useStack, validBody } from "./support/expect.ts";

const stack = useStack({ logLevel: "debug" });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Request Id" });
});

describe("Request-Id", () => {
  test("every kind of response carries a non-empty Request-Id, distinct per request", async () => {
    const s = stack();
    const created = await s.http.createPayment(m.testApiKey, validBody());
    expect(created.status).toBe(201);
    const id = created.json.id;
    const responses = [
      created,
      await s.http.getPayment(m.testApiKey, id),
      await s.http.listPayments(m.testApiKey),
      await s.http.get(`/v1/checkout/${id}`),
      await s.http.get(`/v1/payments/${id}/checkout_session`),
      await s.http.get(`/pay/${id}`),
      await s.http.getPayment(m.testApiKey, randomPaymentId()), // 404
      await s.http.getPayment(undefined, id), // 401
      await s.http.post("/v1/payments", { body: validBody() }), // 400 idempotency_key_required
      await s.http.get("/v1/nowhere"), // unknown route
    ];
    const ids = responses.map((r) => r.header("request-id"));
    for (const [i, rid] of ids.entries()) {
      expect(rid, `response #${i} (HTTP ${responses[i]!.status})`).toBeTruthy();
      expect(rid!.length).toBeGreaterThanOrEqual(8);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each([
    ["a UUID", () => randomUUID()],
    ["a short token", () => "req_" + Math.random().toString(36).slice(2, 12)],
  ])("a client-sent Request-Id (%s) is echoed", async (_label, make) => {
    const s = stack();
    const rid = make();
    const created = await s.http.createPayment(m.testApiKey, validBody(), { headers: { "request-id": rid } });
    expect(created.status).toBe(201);
    expect(created.header("request-id")).toBe(rid);
    const got = await s.http.getPayment(m.testApiKey, created.json.id, { headers: { "request-id": rid } });
    expect(got.header("request-id")).toBe(rid);
    const err = await s.http.getPayment(m.testApiKey, randomPaymentId(), { headers: { "request-id": rid } });
    expect(err.status).toBe(404);
    expect(err.header("request-id")).toBe(rid);
  });

  test("an insane client Request-Id (4 KB, or with spaces/quotes) is replaced by a generated one", async () => {
    const s = stack();
    for (const bad of ["x".repeat(4096), 'a b "c" <d>']) {
      const res = await s.http.getPayment(m.testApiKey, randomPaymentId(), { headers: { "request-id": bad } });
      expect(res.status).toBe(404);
      const rid = res.header("request-id");
      expect(rid).toBeTruthy();
      expect(rid).not.toBe(bad);
      expect(rid!.length).toBeLessThanOrEqual(200);
    }
  });

  test("the request id reaches the core's logs (travels facade → core)", async () => {
    const s = stack();
    const rid = "trace-" + randomUUID();
    const created = await s.http.createPayment(m.testApiKey, validBody(), { headers: { "request-id": rid } });
    expect(created.status).toBe(201);
    // The facade logs once the response is sent, so its line may land after we have the response.
    await vi.waitFor(
      () => {
        expect(s.logText("core").includes(rid), "core log mentions the request id").toBe(true);
        expect(s.logText("facade").includes(rid), "facade log mentions the request id").toBe(true);
      },
      { timeout: 5_000, interval: 100 },
    );
  });

  test("logs are JSON lines and never contain API keys", async () => {
    const s = stack();
    const k = await s.admin.createKey(m.merchantId, "test");
    const idem = newIdemKey();
    await s.http.createPayment(k.apiKey, validBody(), { idem });
    await s.http.createPayment(k.apiKey, validBody({ amount: 5 }), { idem: newIdemKey() }); // a 400
    await s.http.listPayments(k.apiKey, "limit=abc");
    await s.http.getPayment(k.apiKey + "x", randomPaymentId()); // 401 with a near-key
    await s.admin.revokeKey(k.id);
    const last = "last-" + randomUUID();
    await s.http.listPayments(k.apiKey, {}, { headers: { "request-id": last } }); // 401 with a revoked key
    // Read the logs once both have the last request's lines (the facade logs after responding).
    await vi.waitFor(
      () => {
        expect(s.logText("core")).toContain(last);
        expect(s.logText("facade")).toContain(last);
      },
      { timeout: 5_000, interval: 100 },
    );
    for (const name of ["core", "facade"] as const) {
      const text = s.logText(name);
      expect(text.length, `${name} logs something`).toBeGreaterThan(0);
      expect(text.includes(k.apiKey.slice(8)), `${name} log contains an API key`).toBe(false);
      expect(text.includes(m.testApiKey.slice(8)), `${name} log contains an API key`).toBe(false);
      expect(text.includes(m.liveApiKey.slice(8)), `${name} log contains an API key`).toBe(false);
      const lines = text.split("\n").filter((l) => l.trim() && !l.startsWith("====="));
      const nonJson = lines.filter((l) => {
        try {
          JSON.parse(l);
          return false;
        } catch {
          return true;
        }
      });
      expect(nonJson.slice(0, 5), `${name} log lines that are not JSON`).toEqual([]);
    }
  });
});

describe("/healthz", () => {
  test("facade and core answer 200 {status: ok}", async () => {
    const s = stack();
    const f = await s.http.get("/healthz");
    expect(f.status).toBe(200);
    expect(f.json).toEqual({ status: "ok" });
    const res = await fetch(`${s.coreHttpUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  test("the core serves the standard gRPC health-checking service", async () => {
    const s = stack();
    const client = new HealthClient(s.coreGrpcAddr, credentials.createInsecure());
    try {
      const res = await new Promise<HealthCheckResponse>((resolve, reject) =>
        client.check({ service: "" }, new Metadata(), { deadline: new Date(Date.now() + 5_000) }, (err, r) => (err ? reject(err) : resolve(r))),
      );
      expect(res.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    } finally {
      client.close();
    }
  });
});
