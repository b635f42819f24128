// Restart safety: data and idempotency survive stopping and starting the core and
// the facade; SIGTERM is a clean exit; the facade answers 503 processor_unavailable
// (quickly) while the core is down.

import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { expectError, expectPaymentShape, useStack, validBody } from "./support/expect.ts";

const stack = useStack({ allow503: true });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Restart" });
});

describe("restart safety", () => {
  test("a payment and its idempotency key survive a restart of core and facade", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "31337", description: "antes del reinicio" });
    const created = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(created.status, created.text).toBe(201);
    expectPaymentShape(created.json, { publicBaseUrl: s.publicBaseUrl, withDescription: true });

    const core = await s.restart("core");
    const facade = await s.restart("facade");
    expect(core.exit, "core exits by itself on SIGTERM").toMatchObject({ killed: false });
    expect(facade.exit, "facade exits by itself on SIGTERM").toMatchObject({ killed: false });
    expect(core.exit.code === 0 || core.exit.signal === "SIGTERM", JSON.stringify(core.exit)).toBe(true);
    expect(facade.exit.code === 0 || facade.exit.signal === "SIGTERM", JSON.stringify(facade.exit)).toBe(true);

    const got = await s.http.getPayment(m.testApiKey, created.json.id);
    expect(got.status, got.text).toBe(200);
    expect(got.text).toBe(created.text);

    const replay = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(replay.status, replay.text).toBe(201);
    expect(replay.text).toBe(created.text);
    expect(replay.header("idempotent-replayed")).toBe("true");

    const conflict = await s.http.createPayment(m.testApiKey, { ...body, amount: "31338" }, { idem });
    expectError(conflict, 409, "idempotency_key_reused");

    // The API key still works and new payments can be created.
    const fresh = await s.http.createPayment(m.testApiKey, validBody());
    expect(fresh.status, fresh.text).toBe(201);
    const list = await s.http.listPayments(m.testApiKey, { limit: "100" });
    const ids = (list.json.data as any[]).map((p) => p.id);
    expect(ids).toContain(created.json.id);
    expect(ids).toContain(fresh.json.id);
  });

  test("both processes down at once, then up again: data, state and checkout survive", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "2718" });
    const created = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(created.status).toBe(201);
    await s.admin.simulate(created.json.id, "succeed");

    await s.stopProcess("facade");
    await s.stopProcess("core");
    await s.startProcess("core");
    await s.startProcess("facade");

    const got = await s.http.getPayment(m.testApiKey, created.json.id);
    expect(got.status, got.text).toBe(200);
    expect(got.json.status).toBe("captured");
    const replay = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(replay.text).toBe(created.text);
    expect(replay.header("idempotent-replayed")).toBe("true");
    expectError(await s.http.get(`/v1/checkout/${created.json.id}`), 409, "payment_not_payable");
  });

  test("with the core down the facade answers 503 processor_unavailable without hanging, then recovers", async () => {
    const s = stack();
    const created = await s.http.createPayment(m.testApiKey, validBody());
    expect(created.status).toBe(201);
    await s.stopProcess("core");
    try {
      const requests = [
        () => s.http.createPayment(m.testApiKey, validBody(), { timeoutMs: 20_000 }),
        () => s.http.getPayment(m.testApiKey, created.json.id, { timeoutMs: 20_000 }),
        () => s.http.listPayments(m.testApiKey, {}, { timeoutMs: 20_000 }),
        () => s.http.get(`/v1/checkout/${created.json.id}`, { timeoutMs: 20_000 }),
        () => s.http.get(`/v1/payments/${created.json.id}/checkout_session`, { timeoutMs: 20_000 }),
      ];
      for (const r of requests) {
        const res = await r();
        expectError(res, 503, "processor_unavailable");
        expect(res.ms, "answers promptly").toBeLessThan(10_000);
      }
      // Health reports the missing dependency.
      const health = await s.http.get("/healthz");
      expect(health.status).toBe(503);
    } finally {
      await s.startProcess("core");
    }
    // The facade reconnects by itself.
    await expect
      .poll(async () => (await s.http.getPayment(m.testApiKey, created.json.id)).status, { timeout: 10_000, interval: 200 })
      .toBe(200);
  });

  test("in-flight requests complete when the facade gets SIGTERM, and it then exits promptly with code 0", async () => {
    const s = stack();
    const inflight = Array.from({ length: 20 }, () => s.http.createPayment(m.testApiKey, validBody()));
    // Let the requests reach the facade before it is told to stop.
    await sleep(20);
    const t0 = Date.now();
    const exit = s.stopProcess("facade");
    const results = await Promise.allSettled(inflight);
    const lastResponse = Date.now();
    const info = await exit;
    const exitedAt = t0 + info.ms;
    await s.startProcess("facade");
    // Every request either completed normally or was refused before it started
    // (connection error); none got a 5xx.
    for (const r of results) {
      if (r.status === "fulfilled") expect(r.value.status, r.value.text).toBe(201);
    }
    const fulfilled = results.filter((r) => r.status === "fulfilled").length;
    expect(fulfilled).toBeGreaterThan(0);
    expect(info.killed, "needed SIGKILL").toBe(false);
    expect(info.code, JSON.stringify(info)).toBe(0);
    // Idle keep-alive connections must not hold the process up once in-flight work is done.
    expect(exitedAt - lastResponse, "ms between the last response and the exit").toBeLessThan(5_000);
  });
});
