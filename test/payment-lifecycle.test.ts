// The lifecycle through the real processes: the merchant's cancel over REST, the page's attempts
// over gRPC (as the facade calls them), and every state seen through the public API, checkout and
// the checkout session.
import { beforeAll, describe, expect, test } from "vitest";
import { CheckoutNext } from "../proto/gen/paytami/v1/checkout.ts";
import { PaymentStatus } from "../proto/gen/paytami/v1/enums.ts";
import { createOk, driveToState, expectError, RESOLVED_STATES, SESSION_REASON, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";

const stack = useStack({ allow503: true });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Ciclo" });
});

const card = (number: string) => ({ number, exp_month: 12, exp_year: 2031, cvc: "123", holder_name: "Ana López" });

describe("POST /v1/payments/{id}/cancel", () => {
  test("payable → 200 with the canceled Payment; again → 409; the Idempotency-Key replays", async () => {
    const { http } = stack();
    const p = await createOk(http, m.testApiKey);
    const res = await http.post(`/v1/payments/${p.id}/cancel`, { key: m.testApiKey, idem: "cancel-once-1" });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ ...p, status: "canceled" });
    const replay = await http.post(`/v1/payments/${p.id}/cancel`, { key: m.testApiKey, idem: "cancel-once-1" });
    expect(replay.status).toBe(200);
    expect(replay.header("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(res.json);
    expectError(await http.post(`/v1/payments/${p.id}/cancel`, { key: m.testApiKey }), 409, "payment_not_payable");
    expect((await http.getPayment(m.testApiKey, p.id)).json.status).toBe("canceled");
    const events = await stack().sql<{ n: string }>(
      "select count(*)::text as n from outbox_events where type = 'payment.canceled' and envelope->'data'->>'id' = $1",
      [p.id],
    );
    expect(events[0]!.n).toBe("1");
  });

  test("another merchant's or mode's payment is 404 unknown_payment; no key is 401; a short key is 400", async () => {
    const { http, admin } = stack();
    const p = await createOk(http, m.testApiKey);
    const other = await admin.createMerchant();
    expectError(await http.post(`/v1/payments/${p.id}/cancel`, { key: other.testApiKey }), 404, "unknown_payment");
    expectError(await http.post(`/v1/payments/${p.id}/cancel`, { key: m.liveApiKey }), 404, "unknown_payment");
    expectError(await http.post(`/v1/payments/pay_x/cancel`, { key: m.testApiKey }), 404, "unknown_payment");
    expectError(await http.post(`/v1/payments/${p.id}/cancel`, {}), 401, "unauthorized");
    expectError(await http.post(`/v1/payments/${p.id}/cancel`, { key: m.testApiKey, idem: "short" }), 400, "idempotency_key_required");
    expect((await http.getPayment(m.testApiKey, p.id)).json.status).toBe("created");
  });

  test.each(["failed", "canceled", "expired", "captured", "available_to_merchant"])("a %s payment → 409 payment_not_payable", async (state) => {
    const { http } = stack();
    const p = await createOk(http, m.testApiKey);
    await driveToState(stack(), p.id, state);
    expectError(await http.post(`/v1/payments/${p.id}/cancel`, { key: m.testApiKey }), 409, "payment_not_payable");
  });
});

describe("the page's attempts through the core", () => {
  test("the success card captures; the page gets its brand and last four, and goes to success_url", async () => {
    const { http, core } = stack();
    const p = await createOk(http, m.testApiKey);
    const out = await core.checkout.submitCard({ payment_id: p.id, card: card("4242 4242 4242 4242") });
    expect(out).toMatchObject({ next: CheckoutNext.CHECKOUT_NEXT_REDIRECT_SUCCESS, card_brand: "visa", card_last4: "4242" });
    expect(out.payment).toMatchObject({ status: PaymentStatus.PAYMENT_STATUS_CAPTURED, payable: false, reason: "already_paid", card_last4: "4242" });
    expect((await http.getPayment(m.testApiKey, p.id)).json.status).toBe("captured");
  });

  test("the processor-error card: 503 processor_unavailable, still payable", async () => {
    const { http, core } = stack();
    const p = await createOk(http, m.testApiKey);
    await expect(core.checkout.submitCard({ payment_id: p.id, card: card("4000000000000119") })).rejects.toMatchObject({ code: "processor_unavailable" });
    expect((await http.get(`/v1/payments/${p.id}/checkout_session`)).json.payable).toBe(true);
  });

  test("bank transfer: processing with the account and reference; the customer's cancel from the page", async () => {
    const { http, core } = stack();
    const bt = await createOk(http, m.testApiKey, { method_type: "bank_transfer" });
    const started = await core.checkout.startBankTransfer({ payment_id: bt.id });
    expect(started.payment?.status).toBe(PaymentStatus.PAYMENT_STATUS_PROCESSING);
    expect(started.bank_transfer?.reference).toMatch(/^PT-/);
    expect((await core.checkout.getHostedPayment({ payment_id: bt.id })).bank_transfer).toEqual(started.bank_transfer);
    const c = await createOk(http, m.testApiKey);
    const canceled = await core.checkout.cancelCheckout({ payment_id: c.id });
    expect(canceled).toMatchObject({ next: CheckoutNext.CHECKOUT_NEXT_REDIRECT_CANCEL, payment: { status: PaymentStatus.PAYMENT_STATUS_CANCELED } });
  });

  test("embed origins: set through the admin service, validated, shown in the hosted view", async () => {
    const { http, core } = stack();
    const set = await core.admin.setEmbedOrigins({ merchant_id: m.merchantId, origins: ["https://shop.example", "https://www.shop.example:8443/"] });
    expect(set.origins).toEqual(["https://shop.example", "https://www.shop.example:8443"]);
    await expect(core.admin.setEmbedOrigins({ merchant_id: m.merchantId, origins: ["http://shop.example"] })).rejects.toMatchObject({
      code: "validation_error",
    });
    await expect(core.admin.setEmbedOrigins({ merchant_id: m.merchantId, origins: ["https://shop.example/path"] })).rejects.toMatchObject({
      code: "validation_error",
    });
    const p = await createOk(http, m.liveApiKey);
    expect((await core.checkout.getHostedPayment({ payment_id: p.id })).embed_origins).toEqual(set.origins);
  });
});

describe("every resolved state through the public API, checkout and the session (spec 3.2)", () => {
  test.each(RESOLVED_STATES)("%s", async (state) => {
    const { http } = stack();
    const p = await createOk(http, m.testApiKey);
    await driveToState(stack(), p.id, state);
    expect((await http.getPayment(m.testApiKey, p.id)).json.status).toBe(state);
    const listed = await http.listPayments(m.testApiKey, { status: state, limit: "100" });
    expect(listed.json.data.map((x: { id: string }) => x.id)).toContain(p.id);
    expectError(await http.get(`/v1/checkout/${p.id}`), 409, "payment_not_payable");
    expect((await http.get(`/v1/payments/${p.id}/checkout_session`)).json).toEqual({ payment_id: p.id, payable: false, reason: SESSION_REASON[state] });
  });
});
