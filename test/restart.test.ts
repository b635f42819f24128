// Restart safety: data and idempotency survive stopping and starting the core and
// the facade; SIGTERM is a clean exit; the facade answers 503 processor_unavailable
// (and the hosted pages their 503 page) at once while the core is down.

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { eventually } from "./support/eventually.ts";
import { createOk, expectError, expectPage, expectPaymentShape, useStack, validBody } from "./support/expect.ts";

// The facade's deadline for a core call (CORE_TIMEOUT_MS, 10 s by default), here far beyond any
// request's patience: a 503 while the core is down can then only be the refused connection,
// answered at once, never the deadline passing, however slow the machine.
const FACADE_DEADLINE_MS = 600_000;
const stack = useStack({ allow503: true, env: { CORE_TIMEOUT_MS: String(FACADE_DEADLINE_MS) } });
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
      // Answered at all is answered promptly: the facade's deadline is FACADE_DEADLINE_MS away.
      for (const r of requests) expectError(await r(), 503, "processor_unavailable");
      // Health reports the missing dependency.
      const health = await s.http.get("/healthz");
      expect(health.status).toBe(503);
    } finally {
      await s.startProcess("core");
    }
    // The facade reconnects by itself.
    await expect.poll(async () => (await s.http.getPayment(m.testApiKey, created.json.id)).status, { timeout: 10_000, interval: 200 }).toBe(200);
  });

  test("with the core down /pay and /embed answer a 503 page promptly, then recover", async () => {
    const s = stack();
    const p = await createOk(s.http, m.testApiKey);
    const session = await s.http.get(`/v1/payments/${p.id}/checkout_session`);
    const embed = new URL(session.json.checkout_url);
    await s.stopProcess("core");
    try {
      // Answered at all is answered promptly: the facade's deadline is FACADE_DEADLINE_MS away.
      for (const path of [`/pay/${p.id}`, "/pay/x", embed.pathname + embed.search]) {
        const res = await s.http.get(path, { timeoutMs: 20_000 });
        expectPage(res, 503, "Servicio no disponible");
        expect(res.text).toContain("Intente de nuevo");
      }
      const en = await s.http.get(`/pay/${p.id}`, { headers: { "accept-language": "en" }, timeoutMs: 20_000 });
      expectPage(en, 503, "Service unavailable");
      expect(en.headers["content-language"]).toBe("en");
    } finally {
      await s.startProcess("core");
    }
    await expect.poll(async () => (await s.http.get(`/pay/${p.id}`)).status, { timeout: 10_000, interval: 200 }).toBe(200);
  });

  test("in-flight requests complete when the facade gets SIGTERM, and it then exits promptly with code 0", async () => {
    const s = stack();
    const graceRanOut = () => s.logText("facade").split("grace period over").length - 1;
    const forcedBefore = graceRanOut();
    const before = await s.paymentCount();
    const inflight = Array.from({ length: 20 }, () => s.http.createPayment(m.testApiKey, validBody()));
    // Told to stop once the first request has gone through the facade to the core (its payment
    // exists), the others still on their way.
    await eventually(async () => ((await s.paymentCount()) > before ? true : undefined), 30_000, "a request to reach the core", 5);
    const exit = s.stopProcess("facade");
    const results = await Promise.allSettled(inflight);
    const info = await exit;
    const forced = graceRanOut() - forcedBefore;
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
    // Idle keep-alive connections must not hold the process up once in-flight work is done: it exited
    // when the last request was answered, before its grace period (SHUTDOWN_GRACE_MS) ran out and
    // closed whatever connections were left.
    expect(forced, "the facade waited for its grace period to run out").toBe(0);
  });
});
