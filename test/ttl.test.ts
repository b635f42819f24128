// Time-based rules with short TTLs (DESIGN §4): payments expire after PAYMENT_TTL
// (created, processing and authorized → expired; resolved ones stay), and an
// Idempotency-Key is reusable once IDEMPOTENCY_TTL has passed.

import { beforeAll, describe, expect, test, vi } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { createOk, expectError, useStack, validBody } from "./support/expect.ts";

const stack = useStack({ env: { PAYMENT_TTL: "3s", IDEMPOTENCY_TTL: "3s" } });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda TTL" });
});

describe("PAYMENT_TTL", () => {
  test("payable payments expire after PAYMENT_TTL; a captured one does not", { timeout: 90_000 }, async () => {
    const s = stack();
    const make = async (): Promise<string> => (await createOk(s.http, m.testApiKey)).id;
    const created = await make();
    const processing = await make();
    const authorized = await make();
    const captured = await make();
    await s.admin.simulate(processing, "process");
    await s.admin.simulate(authorized, "authorize");
    await s.admin.simulate(captured, "succeed");

    for (const id of [created, processing, authorized]) {
      await expect
        .poll(
          async () => {
            const g = await s.http.getPayment(m.testApiKey, id);
            return [g.status, g.json?.status];
          },
          { timeout: 75_000, interval: 500, message: `${id} to expire` },
        )
        .toEqual([200, "expired"]);
      expectError(await s.http.get(`/v1/checkout/${id}`), 409, "payment_not_payable");
      const session = await s.http.get(`/v1/payments/${id}/checkout_session`);
      expect(session.json).toEqual({ payment_id: id, payable: false, reason: "expired" });
    }
    const c = await s.http.getPayment(m.testApiKey, captured);
    expect(c.json.status).toBe("captured");
    const list = await s.http.listPayments(m.testApiKey, { status: "expired", limit: "100" });
    expect((list.json.data as any[]).map((p) => p.id).sort()).toEqual([created, processing, authorized].sort());
  });
});

describe("IDEMPOTENCY_TTL", () => {
  test("after IDEMPOTENCY_TTL the same key creates a new payment", { timeout: 100_000 }, async () => {
    const s = stack();
    const idem = newIdemKey();
    const first = await s.http.createPayment(m.testApiKey, validBody({ amount: "61000" }), { idem });
    expect(first.status, first.text).toBe(201);
    // Within the TTL: bound.
    expectError(await s.http.createPayment(m.testApiKey, validBody({ amount: "61001" }), { idem }), 409, "idempotency_key_reused");
    // After it (the purge job may run up to a minute later): free again.
    const second = await vi.waitFor(
      async () => {
        const r = await s.http.createPayment(m.testApiKey, validBody({ amount: "61001" }), { idem });
        expect(r.status, "the key is still bound").not.toBe(409);
        return r;
      },
      { timeout: 80_000, interval: 500 },
    );
    expect(second.status, second.text).toBe(201);
    expect(second.header("idempotent-replayed")).not.toBe("true");
    expect(second.json.id).not.toBe(first.json.id);
    expect(second.json.amount).toBe("61001");
    // The first payment is untouched.
    const got = await s.http.getPayment(m.testApiKey, first.json.id);
    expect(got.json.amount).toBe("61000");
  });
});
