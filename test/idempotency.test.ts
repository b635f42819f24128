// Idempotency of POST /v1/payments: spec §8, DESIGN §4 Idempotency.

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant, Stack } from "./support/stack.ts";
import { newIdemKey, type Res } from "./support/http.ts";
import { expectError, expectPaymentShape, useStack, validBody, walkPages } from "./support/expect.ts";

const stack = useStack();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Idem" });
});

function expectReplay(first: Res, again: Res): void {
  expect(again.status, again.text).toBe(201);
  expect(again.text).toBe(first.text);
  expect(again.header("idempotent-replayed")).toBe("true");
}

/** How many of the merchant's payments (every page of the list) have `amount`, which is unique per test below. */
async function countByAmount(s: Stack, amount: string): Promise<number> {
  return (await walkPages(s.http, m.testApiKey, 100)).flat().filter((p) => p.amount === amount).length;
}

describe("replay", () => {
  test("same key + same body → byte-identical 201 with Idempotent-Replayed: true; nothing new created", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "51001", description: "replay me" });
    const first = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(first.status, first.text).toBe(201);
    expect(first.header("idempotent-replayed")).not.toBe("true");
    const count = await s.paymentCount();
    const again = await s.http.createPayment(m.testApiKey, body, { idem });
    expectReplay(first, again);
    const third = await s.http.createPayment(m.testApiKey, body, { idem });
    expectReplay(first, third);
    expect(await s.paymentCount()).toBe(count);
    expect(await countByAmount(s, "51001")).toBe(1);
  });

  test("same body with keys in another order and other whitespace → replay", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "51002", customer: { email: "a@example.com", name: "Ana" } });
    const first = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(first.status, first.text).toBe(201);
    const reordered = {
      customer: { name: "Ana", email: "a@example.com" },
      cancel_url: body.cancel_url,
      method_type: body.method_type,
      success_url: body.success_url,
      currency: body.currency,
      amount: body.amount,
    };
    const again = await s.http.post("/v1/payments", {
      key: m.testApiKey,
      idem,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(reordered, null, 2),
    });
    expectReplay(first, again);
    expect(await countByAmount(s, "51002")).toBe(1);
  });

  test("a different API key of the same merchant and mode replays too (scope is merchant + mode)", async () => {
    const s = stack();
    const k2 = await s.admin.createKey(m.merchantId, "test");
    const idem = newIdemKey();
    const body = validBody({ amount: "51003" });
    const first = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(first.status).toBe(201);
    const again = await s.http.createPayment(k2.apiKey, body, { idem });
    expectReplay(first, again);
  });

  test("the replay is the original 201 even after the payment changed state", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "51004" });
    const first = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(first.status).toBe(201);
    await s.admin.simulate(first.json.id, "succeed");
    const again = await s.http.createPayment(m.testApiKey, body, { idem });
    expectReplay(first, again);
    expect(again.json.status).toBe("created");
    const got = await s.http.getPayment(m.testApiKey, first.json.id);
    expect(got.json.status).toBe("captured");
  });
});

describe("reuse with a different request", () => {
  test.each([
    ["another amount", { amount: "51006" }],
    ["another currency", { currency: "USD", amount: "51005" }],
    ["another method", { method_type: "bank_transfer" }],
    ["another success_url", { success_url: "https://shop.example.com/other" }],
    ["an added description", { description: "extra" }],
    ["an added customer", { customer: { email: "b@example.com" } }],
  ])("same key with %s → 409 idempotency_key_reused, original untouched", async (_label, change) => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "51005" });
    const first = await s.http.createPayment(m.testApiKey, body, { idem });
    expect(first.status, first.text).toBe(201);
    const count = await s.paymentCount();
    const other = await s.http.createPayment(m.testApiKey, { ...body, ...change }, { idem });
    expectError(other, 409, "idempotency_key_reused");
    expect(await s.paymentCount()).toBe(count);
    // The original request still replays.
    expectReplay(first, await s.http.createPayment(m.testApiKey, body, { idem }));
    const got = await s.http.getPayment(m.testApiKey, first.json.id);
    expect(got.text).toBe(first.text);
  });
});

describe("concurrency", () => {
  test("50 concurrent requests with one key → exactly one payment and 50 byte-identical 201 bodies", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "52050" });
    const before = await s.paymentCount();
    const results = await Promise.all(Array.from({ length: 50 }, () => s.http.createPayment(m.testApiKey, body, { idem })));
    const statuses = results.map((r) => r.status);
    expect(statuses, results.find((r) => r.status !== 201)?.text).toEqual(Array(50).fill(201));
    const bodies = new Set(results.map((r) => r.text));
    expect(bodies.size).toBe(1);
    expectPaymentShape(results[0]!.json, { publicBaseUrl: s.publicBaseUrl });
    const fresh = results.filter((r) => r.header("idempotent-replayed") !== "true");
    expect(fresh.length, "exactly one response created the payment; the others are replays").toBe(1);
    expect(await s.paymentCount()).toBe(before + 1);
    expect(await countByAmount(s, "52050")).toBe(1);
  });

  test("concurrent requests with one key and two different bodies → one payment; the losers get 409", async () => {
    const s = stack();
    const idem = newIdemKey();
    const a = validBody({ amount: "52101" });
    const b = validBody({ amount: "52102" });
    const before = await s.paymentCount();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.http.createPayment(m.testApiKey, i % 2 ? a : b, { idem }).then((r) => ({ r, amount: i % 2 ? "52101" : "52102" }))),
    );
    for (const { r } of results) expect([201, 409], r.text).toContain(r.status);
    const created = results.filter(({ r }) => r.status === 201);
    expect(new Set(created.map(({ r }) => r.text)).size).toBe(1);
    const winner = created[0]!.r.json.amount;
    for (const { r, amount } of results) {
      if (amount === winner) expect(r.status, r.text).toBe(201);
      else expectError(r, 409, "idempotency_key_reused");
    }
    expect(await s.paymentCount()).toBe(before + 1);
  });

  test("concurrent distinct keys create distinct payments", async () => {
    const s = stack();
    const before = await s.paymentCount();
    const results = await Promise.all(Array.from({ length: 30 }, () => s.http.createPayment(m.testApiKey, validBody({ amount: "52200" }))));
    for (const r of results) expect(r.status, r.text).toBe(201);
    expect(new Set(results.map((r) => r.json.id)).size).toBe(30);
    expect(await s.paymentCount()).toBe(before + 30);
  });
});

describe("a failed request binds nothing", () => {
  test.each([
    ["validation_error (amount number)", { amount: 1000 }, 400, "validation_error"],
    ["validation_error (missing field)", { method_type: undefined }, 400, "validation_error"],
    ["amount_below_minimum", { amount: "1" }, 400, "amount_below_minimum"],
    ["amount_above_maximum", { amount: "99999999" }, 400, "amount_above_maximum"],
    ["currency_not_supported", { currency: "EUR" }, 400, "currency_not_supported"],
    ["method_not_supported", { currency: "USD", method_type: "bank_transfer", amount: "1000" }, 400, "method_not_supported"],
  ])("after %s the same key succeeds with a valid body", async (_label, change, status, code) => {
    const s = stack();
    const idem = newIdemKey();
    const bad = await s.http.createPayment(m.testApiKey, validBody(change), { idem });
    expectError(bad, status, code);
    const good = await s.http.createPayment(m.testApiKey, validBody({ amount: "53000" }), { idem });
    expect(good.status, good.text).toBe(201);
    expect(good.header("idempotent-replayed")).not.toBe("true");
    expectPaymentShape(good.json, { publicBaseUrl: s.publicBaseUrl });
    // And from then on the key is bound to that payment.
    expectReplay(good, await s.http.createPayment(m.testApiKey, validBody({ amount: "53000" }), { idem }));
  });

  test("after a 401 the same key succeeds", async () => {
    const s = stack();
    const idem = newIdemKey();
    expectError(await s.http.createPayment("sk_test_" + "Q".repeat(32), validBody(), { idem }), 401, "unauthorized");
    expectError(await s.http.createPayment(undefined, validBody(), { idem }), 401, "unauthorized");
    const good = await s.http.createPayment(m.testApiKey, validBody(), { idem });
    expect(good.status, good.text).toBe(201);
    expect(good.header("idempotent-replayed")).not.toBe("true");
  });

  test("after malformed JSON the same key succeeds", async () => {
    const s = stack();
    const idem = newIdemKey();
    const bad = await s.http.post("/v1/payments", {
      key: m.testApiKey,
      idem,
      headers: { "content-type": "application/json" },
      body: '{"amount": "1000",',
    });
    expectError(bad, 400, "validation_error");
    const good = await s.http.createPayment(m.testApiKey, validBody(), { idem });
    expect(good.status, good.text).toBe(201);
  });
});

describe("scope: (merchant, mode)", () => {
  test("same key in another merchant is independent", async () => {
    const s = stack();
    const other = await s.admin.createMerchant({ name: "Otra Tienda" });
    const idem = newIdemKey();
    const body = validBody({ amount: "54000" });
    const a = await s.http.createPayment(m.testApiKey, body, { idem });
    const b = await s.http.createPayment(other.testApiKey, body, { idem });
    expect(a.status, a.text).toBe(201);
    expect(b.status, b.text).toBe(201);
    expect(b.header("idempotent-replayed")).not.toBe("true");
    expect(b.json.id).not.toBe(a.json.id);
    // A different body under the same key in the other merchant is not a conflict either.
    const idem2 = newIdemKey();
    const c = await s.http.createPayment(m.testApiKey, validBody({ amount: "54001" }), { idem: idem2 });
    const d = await s.http.createPayment(other.testApiKey, validBody({ amount: "54002" }), { idem: idem2 });
    expect(c.status, c.text).toBe(201);
    expect(d.status, d.text).toBe(201);
  });

  test("same key in live mode of the same merchant is independent", async () => {
    const s = stack();
    const idem = newIdemKey();
    const body = validBody({ amount: "55000" });
    const t = await s.http.createPayment(m.testApiKey, body, { idem });
    const l = await s.http.createPayment(m.liveApiKey, body, { idem });
    expect(t.status, t.text).toBe(201);
    expect(l.status, l.text).toBe(201);
    expect(l.json.id).not.toBe(t.json.id);
    expect(l.header("idempotent-replayed")).not.toBe("true");
    // Each mode replays its own.
    expectReplay(t, await s.http.createPayment(m.testApiKey, body, { idem }));
    expectReplay(l, await s.http.createPayment(m.liveApiKey, body, { idem }));
  });
});
