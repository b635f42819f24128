// Refunds end to end (issue 9 item 2; spec 2.4, 6.2, 7; DESIGN §4 "Refunds, chargebacks, payouts,
// ledger", Idempotency): POST /v1/refunds, GET /v1/refunds/{id}, GET /v1/refunds, against the real
// facade, core, PostgreSQL, NATS and dispatcher; the ledger rows each refund writes; the
// refund.succeeded webhook at a real receiver.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { newIdemKey, type Res } from "./support/http.ts";
import { CREATED_AT_RE, createOk, driveToState, expectError, payByCard, randomPaymentId, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// The live card network: live payments here are captured by card, as only a live processor can (sandbox steps refuse them).
const stack = useStack({ dispatcher: true, liveCardNetwork: true, env: { OUTBOX_RELAY_INTERVAL: "50ms", DISPATCHER_POLL_INTERVAL: "100ms" } });
const REFUND_ID_RE = /^refund_[0-9a-f]{24}$/;
const REASONS = ["requested_by_customer", "duplicate_charge", "product_not_received", "product_unacceptable", "merchant_error", "fraudulent", "other"];

let m: Merchant;
let other: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Refunds" });
  other = await stack().admin.createMerchant({ name: "Otra Tienda" });
});

/** POST /v1/refunds with a fresh Idempotency-Key, or `idem` (null: no header at all). */
function refund(key: string | undefined, body: unknown, idem: string | null = newIdemKey()): Promise<Res> {
  return stack().http.post("/v1/refunds", { key, body, ...(idem === null ? {} : { idem }) });
}

/** A payment of `amount` driven to `state` (captured by default); a live one is paid by card (captured only). */
async function payment(key: string, state = "captured", amount = "10000", currency = "GTQ"): Promise<string> {
  const p = await createOk(stack().http, key, { amount, currency });
  if (key.startsWith("sk_live_")) {
    if (state !== "captured") throw new Error(`a live payment is only paid by card here, not driven to ${state}`);
    expect(await payByCard(stack(), p.id)).toBe("captured");
  } else {
    await driveToState(stack(), p.id, state);
  }
  return p.id as string;
}

async function refundOk(key: string, body: Record<string, unknown>): Promise<any> {
  const res = await refund(key, body);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

async function paymentStatus(key: string, id: string): Promise<string> {
  const res = await stack().http.getPayment(key, id);
  expect(res.status, res.text).toBe(200);
  return res.json.status as string;
}

function expectRefundShape(r: any): void {
  expect(Object.keys(r)).toEqual(["id", "payment_id", "amount", "currency", "reason", "status", "created_at"]);
  expect(r.id).toMatch(REFUND_ID_RE);
  expect(typeof r.amount).toBe("string");
  expect(r.amount).toMatch(/^[1-9][0-9]*$/);
  expect(REASONS).toContain(r.reason);
  expect(r.status).toBe("succeeded");
  expect(r.created_at).toMatch(CREATED_AT_RE);
}

interface LedgerLine {
  account: string;
  amount: string;
  payment_id: string | null;
}

/** The lines of the ledger transaction(s) of kind refund written for `refundId`. */
async function refundLedger(refundId: string): Promise<{ transactions: number; lines: Record<string, bigint>; paymentIds: Set<string | null> }> {
  const s = stack();
  const tx = await s.sql<{ id: string }>("select id from ledger_transactions where refund_id = $1 and kind = 'refund'", [refundId]);
  const rows = await s.sql<LedgerLine & Record<string, unknown>>(
    "select l.account, l.amount::text as amount, l.payment_id from ledger_lines l join ledger_transactions t on t.id = l.transaction_id where t.refund_id = $1",
    [refundId],
  );
  const lines: Record<string, bigint> = {};
  for (const row of rows) lines[row.account] = (lines[row.account] ?? 0n) + BigInt(row.amount);
  return { transactions: tx.length, lines, paymentIds: new Set(rows.map((r) => r.payment_id)) };
}

async function balance(merchantId: string, account: string): Promise<bigint> {
  const [row] = await stack().sql<{ sum: string | null }>(
    "select sum(amount)::text as sum from ledger_lines where merchant_id = $1 and mode = 'test' and account = $2",
    [merchantId, account],
  );
  return BigInt(row?.sum ?? "0");
}

describe("POST /v1/refunds: check order and errors", () => {
  test("a missing or short Idempotency-Key is refused before anything else, authentication included", async () => {
    expectError(await refund(undefined, { payment_id: randomPaymentId() }, null), 400, "idempotency_key_required");
    expectError(await refund(undefined, "not json at all", null), 400, "idempotency_key_required");
    expectError(await refund(m.testApiKey, { payment_id: randomPaymentId() }, null), 400, "idempotency_key_required");
    expectError(await refund("sk_test_bogus", {}, "1234567"), 400, "idempotency_key_required");
    expectError(await refund(m.testApiKey, { payment_id: randomPaymentId() }, ""), 400, "idempotency_key_required");
  });

  test("401 unauthorized for a missing, malformed or unknown key, before the body is looked at", async () => {
    expectError(await refund(undefined, { payment_id: randomPaymentId() }), 401, "unauthorized");
    expectError(await refund("sk_test_short", { nonsense: true }), 401, "unauthorized");
    expectError(await refund("sk_test_" + "A".repeat(32), { payment_id: randomPaymentId() }), 401, "unauthorized");
    const res = await stack().http.post("/v1/refunds", {
      body: { payment_id: randomPaymentId() },
      idem: newIdemKey(),
      headers: { authorization: `Basic ${m.testApiKey}` },
    });
    expectError(res, 401, "unauthorized");
  });

  test("validation_error for malformed bodies, unknown fields and bad values", async () => {
    const paymentId = await payment(m.testApiKey);
    const bad: unknown[] = [
      {},
      { payment_id: 42 },
      { payment_id: paymentId, amount: 100 },
      { payment_id: paymentId, amount: "0" },
      { payment_id: paymentId, amount: "-100" },
      { payment_id: paymentId, amount: "10.5" },
      { payment_id: paymentId, amount: "0100" },
      { payment_id: paymentId, amount: "" },
      { payment_id: paymentId, amount: "12345678901234567" },
      { payment_id: paymentId, reason: "changed_my_mind" },
      { payment_id: paymentId, reason: "Duplicate_charge" },
      { payment_id: paymentId, reason: null },
      { payment_id: paymentId, extra: "field" },
      [paymentId],
      "a string",
    ];
    for (const body of bad) expectError(await refund(m.testApiKey, body), 400, "validation_error");
    expectError(
      await stack().http.post("/v1/refunds", { key: m.testApiKey, idem: newIdemKey(), body: "{not json", headers: { "content-type": "application/json" } }),
      400,
      "validation_error",
    );
    expectError(
      await stack().http.post("/v1/refunds", {
        key: m.testApiKey,
        idem: newIdemKey(),
        body: `{"payment_id":"${paymentId}","payment_id":"${paymentId}"}`,
        headers: { "content-type": "application/json" },
      }),
      400,
      "validation_error",
    );
    expectError(
      await stack().http.post("/v1/refunds", {
        key: m.testApiKey,
        idem: newIdemKey(),
        body: `payment_id=${paymentId}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      400,
      "validation_error",
    );
    expectError(await refund(m.testApiKey, { payment_id: paymentId }, "k".repeat(256)), 400, "validation_error");
    // Nothing was refunded by any of them.
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("captured");
  });

  test("404 unknown_payment for a missing id, a malformed id, another merchant's and the other mode's payment", async () => {
    const theirs = await payment(other.testApiKey);
    const live = await payment(m.liveApiKey);
    for (const paymentId of [randomPaymentId(), "pay_123", "refund_" + "0".repeat(24), theirs, live]) {
      const res = await refund(m.testApiKey, { payment_id: paymentId, amount: "100" });
      expectError(res, 404, "unknown_payment");
    }
    // Their owners can refund them.
    expect((await refundOk(other.testApiKey, { payment_id: theirs })).amount).toBe("10000");
    expect((await refundOk(m.liveApiKey, { payment_id: live, amount: "100" })).amount).toBe("100");
  });

  test("400 payment_not_refundable for every state that cannot be refunded, naming the status", async () => {
    for (const state of ["created", "processing", "authorized", "failed", "canceled", "expired", "refunded", "chargeback"]) {
      const paymentId = await payment(m.testApiKey, state);
      for (const body of [{ payment_id: paymentId }, { payment_id: paymentId, amount: "100" }]) {
        const res = await refund(m.testApiKey, body);
        expectError(res, 400, "payment_not_refundable");
        expect(res.json.error.message).toContain(state);
      }
    }
    const rows = await stack().sql(
      "select 1 from refunds r join payments p on p.id = r.payment_id where p.merchant_id = $1 and p.status in ('created','failed','canceled','expired','chargeback')",
      [m.merchantId],
    );
    expect(rows).toEqual([]);
  });
});

describe("POST /v1/refunds: money", () => {
  test("partial then the rest: partially_refunded, then refunded; the default amount is the remainder and the default reason requested_by_customer", async () => {
    const paymentId = await payment(m.testApiKey, "captured", "10000");
    const first = await refund(m.testApiKey, { payment_id: paymentId, amount: "2500", reason: "duplicate_charge" });
    expect(first.status, first.text).toBe(201);
    expect(first.header("content-type")).toMatch(/^application\/json/);
    expect(first.header("idempotent-replayed")).toBeUndefined();
    expectRefundShape(first.json);
    expect(first.json).toMatchObject({ payment_id: paymentId, amount: "2500", currency: "GTQ", reason: "duplicate_charge", status: "succeeded" });
    expect(first.text).toContain(`"amount":"2500"`);
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("partially_refunded");

    const rest = await refundOk(m.testApiKey, { payment_id: paymentId });
    expectRefundShape(rest);
    expect(rest).toMatchObject({ payment_id: paymentId, amount: "7500", currency: "GTQ", reason: "requested_by_customer" });
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("refunded");

    const again = await refund(m.testApiKey, { payment_id: paymentId, amount: "1" });
    expectError(again, 400, "payment_not_refundable");
    expect(again.json.error.message).toContain("refunded");
  });

  test("a full refund at once moves a captured payment straight to refunded; USD keeps its currency", async () => {
    const paymentId = await payment(m.testApiKey, "captured", "2500", "USD");
    const r = await refundOk(m.testApiKey, { payment_id: paymentId, amount: "2500", reason: "other" });
    expect(r).toMatchObject({ amount: "2500", currency: "USD", reason: "other" });
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("refunded");
  });

  test("every settlement state can be refunded, and every reason of spec 2.4 is accepted", async () => {
    const states = ["captured", "pending_settlement", "settled_to_paytami", "available_to_merchant"];
    for (const [i, reason] of REASONS.entries()) {
      const paymentId = await payment(m.testApiKey, states[i % states.length]);
      const r = await refundOk(m.testApiKey, { payment_id: paymentId, amount: "100", reason });
      expect(r.reason).toBe(reason);
      expect(await paymentStatus(m.testApiKey, paymentId)).toBe("partially_refunded");
    }
  });

  test("refund_amount_exceeds_remaining counts every earlier refund; the exact remainder is still accepted", async () => {
    const paymentId = await payment(m.testApiKey, "captured", "10000");
    expectError(await refund(m.testApiKey, { payment_id: paymentId, amount: "10001" }), 400, "refund_amount_exceeds_remaining");
    await refundOk(m.testApiKey, { payment_id: paymentId, amount: "6000" });
    await refundOk(m.testApiKey, { payment_id: paymentId, amount: "3000" });
    const over = await refund(m.testApiKey, { payment_id: paymentId, amount: "1001" });
    expectError(over, 400, "refund_amount_exceeds_remaining");
    expect(over.json.error.message).toContain("1000");
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("partially_refunded");
    expect((await refundOk(m.testApiKey, { payment_id: paymentId, amount: "1000" })).amount).toBe("1000");
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("refunded");
  });

  test("50 concurrent partial refunds on one payment never exceed its amount; each success has one balanced ledger transaction", async () => {
    const paymentId = await payment(m.testApiKey, "captured", "10000");
    const results = await Promise.all(Array.from({ length: 50 }, () => refund(m.testApiKey, { payment_id: paymentId, amount: "300" })));
    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(ok.length).toBe(33);
    for (const r of refused) expectError(r, 400, "refund_amount_exceeds_remaining");
    const [sum] = await stack().sql<{ total: string; n: string }>("select sum(amount)::text as total, count(*)::text as n from refunds where payment_id = $1", [
      paymentId,
    ]);
    expect(sum).toEqual({ total: "9900", n: "33" });
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("partially_refunded");
    for (const r of ok) {
      const ledger = await refundLedger(r.json.id);
      expect(ledger.transactions).toBe(1);
      expect(Object.values(ledger.lines).reduce((a, b) => a + b, 0n)).toBe(0n);
      expect(ledger.lines).toEqual({ merchant_pending: -300n, platform_cash: 300n });
      expect([...ledger.paymentIds]).toEqual([paymentId]);
    }
    // The last 100 are still refundable.
    expect((await refundOk(m.testApiKey, { payment_id: paymentId })).amount).toBe("100");
    expect(await paymentStatus(m.testApiKey, paymentId)).toBe("refunded");
  });
});

describe("the ledger of a refund", () => {
  test("before release the refund comes out of pending; the fee is not returned", async () => {
    const mer = await stack().admin.createMerchant({ name: "Ledger Before" });
    const paymentId = await payment(mer.testApiKey, "captured", "10000"); // fee 550, net 9450
    const r = await refundOk(mer.testApiKey, { payment_id: paymentId, amount: "4000" });
    expect(await refundLedger(r.id)).toEqual({ transactions: 1, lines: { merchant_pending: -4000n, platform_cash: 4000n }, paymentIds: new Set([paymentId]) });
    expect(await balance(mer.merchantId, "merchant_pending")).toBe(5450n);
    expect(await balance(mer.merchantId, "fee_revenue")).toBe(550n);
    // Released afterwards: only what is left of the payment's pending share becomes available.
    await stack().admin.simulate(paymentId, "settle");
    expect(await balance(mer.merchantId, "merchant_pending")).toBe(0n);
    expect(await balance(mer.merchantId, "merchant_available")).toBe(5450n);
  });

  test("after release it comes out of the available balance", async () => {
    const mer = await stack().admin.createMerchant({ name: "Ledger After" });
    const paymentId = await payment(mer.testApiKey, "available_to_merchant", "10000");
    expect(await balance(mer.merchantId, "merchant_available")).toBe(9450n);
    const r = await refundOk(mer.testApiKey, { payment_id: paymentId, amount: "4000" });
    expect(await paymentStatus(mer.testApiKey, paymentId)).toBe("partially_refunded");
    expect((await refundLedger(r.id)).lines).toEqual({ merchant_available: -4000n, platform_cash: 4000n });
    expect(await balance(mer.merchantId, "merchant_available")).toBe(5450n);
    expect(await balance(mer.merchantId, "merchant_pending")).toBe(0n);
  });

  test("a released refund larger than the available balance leaves the rest as a debt in pending", async () => {
    const mer = await stack().admin.createMerchant({ name: "Ledger Debt" });
    const paymentId = await payment(mer.testApiKey, "available_to_merchant", "10000"); // 9450 available
    const r = await refundOk(mer.testApiKey, { payment_id: paymentId });
    expect(r.amount).toBe("10000");
    expect((await refundLedger(r.id)).lines).toEqual({ merchant_available: -9450n, merchant_pending: -550n, platform_cash: 10000n });
    expect(await balance(mer.merchantId, "merchant_available")).toBe(0n);
    expect(await balance(mer.merchantId, "merchant_pending")).toBe(-550n);
    // Every transaction of this merchant sums to zero.
    const unbalanced = await stack().sql(
      "select t.id from ledger_transactions t join ledger_lines l on l.transaction_id = t.id where t.merchant_id = $1 group by t.id having sum(l.amount) <> 0",
      [mer.merchantId],
    );
    expect(unbalanced).toEqual([]);
  });
});

describe("Idempotency-Key on POST /v1/refunds", () => {
  test("the same request replays the original 201 byte for byte with Idempotent-Replayed: true, even after the payment is fully refunded", async () => {
    const paymentId = await payment(m.testApiKey);
    const idem = newIdemKey();
    const body = { payment_id: paymentId };
    const first = await refund(m.testApiKey, body, idem);
    expect(first.status, first.text).toBe(201);
    const second = await refund(m.testApiKey, body, idem);
    expect(second.status).toBe(201);
    expect(second.header("idempotent-replayed")).toBe("true");
    expect(second.text).toBe(first.text);
    const [count] = await stack().sql<{ n: string }>("select count(*)::text as n from refunds where payment_id = $1", [paymentId]);
    expect(count!.n).toBe("1");
  });

  test("the same key with a different request is 409 idempotency_key_reused; the key is scoped to the merchant and mode", async () => {
    const paymentId = await payment(m.testApiKey);
    const idem = newIdemKey();
    await refundOk(m.testApiKey, { payment_id: paymentId, amount: "100" }).then(() => undefined);
    const first = await refund(m.testApiKey, { payment_id: paymentId, amount: "100" }, idem);
    expect(first.status).toBe(201);
    expectError(await refund(m.testApiKey, { payment_id: paymentId, amount: "200" }, idem), 409, "idempotency_key_reused");
    expectError(await refund(m.testApiKey, { payment_id: paymentId, amount: "100", reason: "other" }, idem), 409, "idempotency_key_reused");
    // Another merchant and the other mode have their own keys.
    const theirs = await payment(other.testApiKey);
    expect((await refund(other.testApiKey, { payment_id: theirs, amount: "100" }, idem)).status).toBe(201);
    const live = await payment(m.liveApiKey);
    expect((await refund(m.liveApiKey, { payment_id: live, amount: "100" }, idem)).status).toBe(201);
  });

  test("a failed request binds nothing: the same key then works for a valid request", async () => {
    const paymentId = await payment(m.testApiKey, "captured", "10000");
    const idem = newIdemKey();
    expectError(await refund(m.testApiKey, { payment_id: paymentId, amount: "20000" }, idem), 400, "refund_amount_exceeds_remaining");
    expectError(await refund(m.testApiKey, { payment_id: randomPaymentId() }, idem), 404, "unknown_payment");
    expectError(await refund(m.testApiKey, { payment_id: paymentId, amount: "x" }, idem), 400, "validation_error");
    const ok = await refund(m.testApiKey, { payment_id: paymentId, amount: "500" }, idem);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.header("idempotent-replayed")).toBeUndefined();
  });

  test("concurrent requests with one key create exactly one refund; the others replay it (or 409 for another body)", async () => {
    const paymentId = await payment(m.testApiKey, "captured", "10000");
    const idem = newIdemKey();
    const same = Array.from({ length: 12 }, () => refund(m.testApiKey, { payment_id: paymentId, amount: "1000" }, idem));
    const different = Array.from({ length: 4 }, () => refund(m.testApiKey, { payment_id: paymentId, amount: "2000" }, idem));
    const results = await Promise.all([...same, ...different]);
    const created = results.filter((r) => r.status === 201);
    const fresh = created.filter((r) => r.header("idempotent-replayed") !== "true");
    expect(fresh.length).toBe(1);
    for (const r of created) expect(r.text).toBe(fresh[0]!.text);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, "idempotency_key_reused");
    const [count] = await stack().sql<{ n: string }>("select count(*)::text as n from refunds where payment_id = $1", [paymentId]);
    expect(count!.n).toBe("1");
  });
});

describe("GET /v1/refunds/{id} and GET /v1/refunds", () => {
  test("GET returns the 201's object; another merchant's or mode's refund, or a malformed id, is 404 unknown_payment", async () => {
    const paymentId = await payment(m.testApiKey);
    const created = await refund(m.testApiKey, { payment_id: paymentId, amount: "1234", reason: "fraudulent" });
    const got = await stack().http.get(`/v1/refunds/${created.json.id}`, { key: m.testApiKey });
    expect(got.status, got.text).toBe(200);
    expect(got.text).toBe(created.text);
    expectError(await stack().http.get(`/v1/refunds/${created.json.id}`, { key: other.testApiKey }), 404, "unknown_payment");
    expectError(await stack().http.get(`/v1/refunds/${created.json.id}`, { key: m.liveApiKey }), 404, "unknown_payment");
    expectError(await stack().http.get(`/v1/refunds/refund_${"0".repeat(24)}`, { key: m.testApiKey }), 404, "unknown_payment");
    expectError(await stack().http.get("/v1/refunds/nope", { key: m.testApiKey }), 404, "unknown_payment");
    expectError(await stack().http.get(`/v1/refunds/${created.json.id}`, {}), 401, "unauthorized");
  });

  test("the list is newest first, keyset-paginated, filtered by payment, and shows only the caller's merchant and mode", async () => {
    const mer = await stack().admin.createMerchant({ name: "Lister" });
    const p1 = await payment(mer.testApiKey);
    const p2 = await payment(mer.testApiKey);
    const made: string[] = [];
    for (const [i, p] of [p1, p2, p1, p2, p1].entries()) made.push((await refundOk(mer.testApiKey, { payment_id: p, amount: String(100 + i) })).id);
    const live = await payment(mer.liveApiKey);
    await refundOk(mer.liveApiKey, { payment_id: live, amount: "100" });

    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await stack().http.get(`/v1/refunds?limit=2${after ? `&starting_after=${after}` : ""}`, { key: mer.testApiKey });
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.json)).toEqual(["data", "has_more"]);
      for (const r of res.json.data) expectRefundShape(r);
      seen.push(...res.json.data.map((r: any) => r.id));
      if (!res.json.has_more) break;
      expect(res.json.data.length).toBe(2);
      after = res.json.data.at(-1).id;
    }
    expect(seen).toEqual([...made].reverse());

    const byPayment = await stack().http.get(`/v1/refunds?payment_id=${p1}`, { key: mer.testApiKey });
    expect(byPayment.status).toBe(200);
    expect(byPayment.json.data.map((r: any) => r.id)).toEqual([made[4], made[2], made[0]]);
    expect(byPayment.json.has_more).toBe(false);
    const all = await stack().http.get("/v1/refunds", { key: mer.testApiKey });
    expect(all.json.data.length).toBe(5);

    const liveList = await stack().http.get("/v1/refunds", { key: mer.liveApiKey });
    expect(liveList.json.data.map((r: any) => r.payment_id)).toEqual([live]);
    const otherList = await stack().http.get("/v1/refunds", { key: other.testApiKey });
    expect(otherList.json.data.every((r: any) => r.payment_id !== p1 && r.payment_id !== p2)).toBe(true);
  });

  test("list errors: limit out of range, unknown parameters, a foreign starting_after are validation_error; a foreign payment_id is unknown_payment", async () => {
    const mine = await payment(m.testApiKey);
    const theirs = await payment(other.testApiKey);
    const theirRefund = await refundOk(other.testApiKey, { payment_id: theirs, amount: "100" });
    for (const q of ["limit=0", "limit=101", "limit=abc", "limit=1&limit=2", "status=refunded", `starting_after=${theirRefund.id}`, "starting_after=bogus"]) {
      expectError(await stack().http.get(`/v1/refunds?${q}`, { key: m.testApiKey }), 400, "validation_error");
    }
    for (const id of [theirs, randomPaymentId(), "nope"]) {
      expectError(await stack().http.get(`/v1/refunds?payment_id=${id}`, { key: m.testApiKey }), 404, "unknown_payment");
    }
    const empty = await stack().http.get(`/v1/refunds?payment_id=${mine}`, { key: m.testApiKey });
    expect(empty.json).toEqual({ data: [], has_more: false });
    expectError(await stack().http.get("/v1/refunds", {}), 401, "unauthorized");
  });
});

describe("refund.succeeded", () => {
  const receivers: WebhookReceiver[] = [];
  afterAll(async () => {
    for (const r of receivers) await r.stop();
  });

  test("arrives at the merchant's endpoint with exactly the Refund of spec 2.4 as data", async () => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const mer = await stack().admin.createMerchant({ name: "Hooked" });
    await stack().core.webhooks.createEndpoint({
      merchant_id: mer.merchantId,
      mode: modeCodec.fromWire("test"),
      url: receiver.url,
      enabled_events: ["refund.succeeded"],
    });
    const paymentId = await payment(mer.testApiKey, "captured", "10000");
    const r = await refundOk(mer.testApiKey, { payment_id: paymentId, amount: "2500", reason: "product_unacceptable" });
    await receiver.waitFor((requests) => requests.length >= 1, 30_000, "refund.succeeded");
    const envelope = JSON.parse(receiver.requests[0]!.body.toString());
    expect(envelope.type).toBe("refund.succeeded");
    expect(Object.keys(envelope).sort()).toEqual(["created_at", "data", "id", "type"]);
    expect(envelope.data).toEqual(r);
    // The event store keeps envelopes as jsonb, which orders keys its own way (payment events alike): the key set is exact.
    expect(Object.keys(envelope.data).sort()).toEqual(["amount", "created_at", "currency", "id", "payment_id", "reason", "status"]);
    expect(envelope.data).toMatchObject({ payment_id: paymentId, amount: "2500", currency: "GTQ", reason: "product_unacceptable", status: "succeeded" });
    expect(receiver.requests[0]!.headers["service-event-id"]).toBe(envelope.id);
    // One event per refund; no payment event for the refund's transition.
    const events = await stack().sql<{ type: string }>("select type from outbox_events where merchant_id = $1 order by seq", [mer.merchantId]);
    expect(events.map((e) => e.type)).toEqual(["payment.succeeded", "refund.succeeded"]);
  });
});
