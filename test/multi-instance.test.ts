// Several core + facade instances against one database behave as one (DESIGN §1:
// "any number of core instances may run against one database", "any number of
// facade instances behind a load balancer behave as one"): idempotency holds across
// instances, and what one instance writes the others read.

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey, type HttpClient } from "./support/http.ts";
import { createOk, expectError, expectPaymentShape, useStack, validBody, walkPages } from "./support/expect.ts";

const stack = useStack();
let m: Merchant;
let clients: HttpClient[];

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Tienda Multi" });
  clients = [s.http, await s.addInstance()];
});

describe("two instances, one database", () => {
  test("50 concurrent requests with one key spread over both instances → exactly one payment, 50 identical bodies", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "71000" });
    const before = await s.paymentCount();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % 2]!.createPayment(m.testApiKey, body, { idem })));
    expect(
      results.map((r) => r.status),
      results.find((r) => r.status !== 201)?.text,
    ).toEqual(Array(50).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.header("idempotent-replayed") !== "true").length).toBe(1);
    expect(await s.paymentCount()).toBe(before + 1);
  });

  test("concurrent requests with one key and two bodies over both instances → one payment, 409 for the other body", async () => {
    const s = stack();
    const idem = newIdemKey();
    const bodies = [validBody({ amount: "71001" }), validBody({ amount: "71002" })];
    const before = await s.paymentCount();
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        clients[i % 2]!.createPayment(m.testApiKey, bodies[Math.floor(i / 2) % 2], { idem }).then((r) => ({
          r,
          amount: (bodies[Math.floor(i / 2) % 2] as any).amount,
        })),
      ),
    );
    const winners = results.filter(({ r }) => r.status === 201);
    expect(winners.length).toBeGreaterThan(0);
    const winningAmount = winners[0]!.r.json.amount;
    for (const { r, amount } of results) {
      if (amount === winningAmount) expect(r.status, r.text).toBe(201);
      else expectError(r, 409, "idempotency_key_reused");
    }
    expect(new Set(winners.map(({ r }) => r.text)).size).toBe(1);
    expect(await s.paymentCount()).toBe(before + 1);
  });

  test("a payment created through one instance reads identically through the other; replay works across instances", async () => {
    const idem = newIdemKey();
    const body = validBody({ amount: "71003", description: "multi" });
    const a = await clients[0]!.createPayment(m.testApiKey, body, { idem });
    expect(a.status, a.text).toBe(201);
    expectPaymentShape(a.json, { publicBaseUrl: stack().publicBaseUrl, withDescription: true });
    const b = await clients[1]!.getPayment(m.testApiKey, a.json.id);
    expect(b.status, b.text).toBe(200);
    expect(b.text).toBe(a.text);
    const replay = await clients[1]!.createPayment(m.testApiKey, body, { idem });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(a.text);
    expect(replay.header("idempotent-replayed")).toBe("true");
    const checkout = await clients[1]!.get(`/v1/checkout/${a.json.id}`);
    expect(checkout.status).toBe(302);
    expect(checkout.header("location")).toBe(`${stack().publicBaseUrl}/pay/${a.json.id}`);
  });

  test("paging alternately through both instances returns every payment exactly once", async () => {
    const s = stack();
    const mm = await s.admin.createMerchant({ name: "Multi List" });
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push((await createOk(clients[i % 2]!, mm.testApiKey)).id);
    const seen = (await walkPages(clients, mm.testApiKey, 4)).flat().map((p) => p.id);
    expect(seen).toEqual([...ids].reverse());
  });
});
