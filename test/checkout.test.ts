// GET /v1/checkout/{id}, GET /v1/payments/{id}/checkout_session and the /pay/{id}
// page they lead to: spec 3.2, 4.4, 4.5; DESIGN §4 Hosted pages.
//
// PUBLIC_BASE_URL and EMBED_BASE_URL are set to hosts other than the facade's
// loopback address, to check that the URLs handed out come from configuration and
// not from the request's Host header.

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import type { Res } from "./support/http.ts";
import {
  createOk,
  driveToState,
  expectError,
  expectPaymentShape,
  PAYABLE_STATES,
  randomHex,
  randomPaymentId,
  RESOLVED_STATES,
  SESSION_REASON,
  useStack,
} from "./support/expect.ts";

const PUBLIC = "https://pay.paytami.test";
const EMBED = "https://embed.paytami.test";
const stack = useStack({ publicBaseUrl: PUBLIC, embedBaseUrl: EMBED });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Checkout" });
});

function expectNoStore(res: Res): void {
  expect(res.header("cache-control") ?? "", `Cache-Control on ${res.status}`).toMatch(/no-store/);
}

async function newPayment(body: Record<string, unknown> = {}, key = m.testApiKey): Promise<any> {
  const p = await createOk(stack().http, key, { amount: "12345", ...body });
  expectPaymentShape(p, { publicBaseUrl: PUBLIC, withDescription: "description" in body });
  return p;
}

const MALFORMED_IDS = [
  "pay_123",
  "pay_" + "A".repeat(24),
  "PAY_" + "a".repeat(24),
  "pay_" + "g".repeat(24),
  "pay_" + "a".repeat(23),
  "pay_" + "a".repeat(25),
  "link_" + "a".repeat(24),
  "x",
  "a".repeat(600),
  "pay_" + "a".repeat(24) + "%00",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "pay_%20" + "a".repeat(21),
  "null",
  "undefined",
  "0",
];

describe("GET /v1/checkout/{id}", () => {
  test.each(PAYABLE_STATES)("%s → 302 to {PUBLIC_BASE_URL}/pay/{id}, no-store, and the page identifies the payment", async (state) => {
    const s = stack();
    const p = await newPayment();
    await driveToState(s, p.id, state);
    const got = await s.http.getPayment(m.testApiKey, p.id);
    expect(got.json.status).toBe(state);

    // Follow the payment's own checkout_url (its path, on the facade).
    expect(p.checkout_url).toBe(`${PUBLIC}/v1/checkout/${p.id}`);
    const res = await s.http.get(new URL(p.checkout_url).pathname);
    expect(res.status, res.text).toBe(302);
    expect(res.header("location")).toBe(`${PUBLIC}/pay/${p.id}`);
    expectNoStore(res);

    const page = await s.http.get(new URL(res.header("location")!).pathname, { headers: { accept: "text/html" } });
    expect(page.status, page.text.slice(0, 300)).toBe(200);
    expect(page.header("content-type")).toMatch(/^text\/html/);
    expectNoStore(page);
    expect(page.text).toContain(p.id);
    // Amount 12345 minor units of GTQ.
    expect(page.text).toContain("Q 123.45");
  });

  test("needs no credentials and ignores a bogus Authorization header", async () => {
    const s = stack();
    const p = await newPayment();
    const res = await s.http.get(`/v1/checkout/${p.id}`, { headers: { authorization: "Bearer sk_test_nonsense" } });
    expect(res.status, res.text).toBe(302);
    expect(res.header("location")).toBe(`${PUBLIC}/pay/${p.id}`);
  });

  test("bank transfer, USD and live-mode payments redirect too", async () => {
    const s = stack();
    const bank = await newPayment({ method_type: "bank_transfer" });
    const usd = await newPayment({ currency: "USD", amount: "1500" });
    const live = await newPayment({}, m.liveApiKey);
    for (const p of [bank, usd, live]) {
      const res = await s.http.get(`/v1/checkout/${p.id}`);
      expect(res.status, res.text).toBe(302);
      expect(res.header("location")).toBe(`${PUBLIC}/pay/${p.id}`);
    }
    const usdPage = await s.http.get(`/pay/${usd.id}`);
    expect(usdPage.status).toBe(200);
    expect(usdPage.text).toContain(usd.id);
    expect(usdPage.text).toContain("US$ 15.00");
  });

  test.each(RESOLVED_STATES)("%s → 409 payment_not_payable with no-store", async (state) => {
    const s = stack();
    const p = await newPayment();
    await driveToState(s, p.id, state);
    const got = await s.http.getPayment(m.testApiKey, p.id);
    expect(got.json.status).toBe(state);
    const res = await s.http.get(`/v1/checkout/${p.id}`);
    expectError(res, 409, "payment_not_payable");
    expectNoStore(res);
    expect(res.header("location")).toBeUndefined();
  });

  test("unknown id → 404 unknown_payment", async () => {
    const s = stack();
    const res = await s.http.get(`/v1/checkout/${randomPaymentId()}`);
    expectError(res, 404, "unknown_payment");
    expectNoStore(res);
  });

  test.each(MALFORMED_IDS)("malformed id %j → 404 unknown_payment", async (id) => {
    const s = stack();
    const res = await s.http.get(`/v1/checkout/${id}`);
    expectError(res, 404, "unknown_payment");
  });

  // The hosted page of an unknown payment (a 404 page): hosted-pages.test.ts.
  test("text in the hosted page is HTML-escaped", async () => {
    const s = stack();
    const evil = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const p = await newPayment({ description: evil });
    const page = await s.http.get(`/pay/${p.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>alert(");
    expect(page.text).not.toContain("<img src=x onerror");
  });
});

describe("GET /v1/payments/{id}/checkout_session", () => {
  test.each(PAYABLE_STATES)("%s → 200 {payment_id, payable: true, checkout_url on EMBED_BASE_URL}", async (state) => {
    const s = stack();
    const p = await newPayment();
    await driveToState(s, p.id, state);
    const res = await s.http.get(`/v1/payments/${p.id}/checkout_session`);
    expect(res.status, res.text).toBe(200);
    expect(res.header("content-type")).toMatch(/^application\/json/);
    expectNoStore(res);
    expect(Object.keys(res.json).sort()).toEqual(["checkout_url", "payable", "payment_id"]);
    expect(res.json.payment_id).toBe(p.id);
    expect(res.json.payable).toBe(true);
    expect(typeof res.json.checkout_url).toBe("string");
    expect(res.json.checkout_url.startsWith(`${EMBED}/embed/${p.id}?token=`), res.json.checkout_url).toBe(true);
    const token = new URL(res.json.checkout_url).searchParams.get("token");
    expect(token && token.length >= 16).toBe(true);
    // Not the stable checkout_url of the Payment.
    expect(res.json.checkout_url).not.toBe(p.checkout_url);
  });

  test.each(RESOLVED_STATES)("%s → 200 {payment_id, payable: false, reason}", async (state) => {
    const s = stack();
    const p = await newPayment();
    await driveToState(s, p.id, state);
    const res = await s.http.get(`/v1/payments/${p.id}/checkout_session`);
    expect(res.status, res.text).toBe(200);
    expectNoStore(res);
    expect(res.json).toEqual({ payment_id: p.id, payable: false, reason: SESSION_REASON[state] });
    expect(Object.keys(res.json)).not.toContain("checkout_url");
  });

  test("needs no credentials; a session reflects the current state", async () => {
    const s = stack();
    const p = await newPayment();
    const before = await s.http.get(`/v1/payments/${p.id}/checkout_session`, {
      headers: { authorization: "Bearer sk_test_" + randomHex(32) },
    });
    expect(before.status, before.text).toBe(200);
    expect(before.json.payable).toBe(true);
    await s.admin.simulate(p.id, "succeed");
    const after = await s.http.get(`/v1/payments/${p.id}/checkout_session`);
    expect(after.json).toEqual({ payment_id: p.id, payable: false, reason: "already_paid" });
  });

  test("unknown id → 404 unknown_payment", async () => {
    const s = stack();
    const res = await s.http.get(`/v1/payments/${randomPaymentId()}/checkout_session`);
    expectError(res, 404, "unknown_payment");
    expectNoStore(res);
  });

  test.each(MALFORMED_IDS.filter((id) => !id.includes("%2f")))("malformed id %j → 404 unknown_payment", async (id) => {
    const s = stack();
    const res = await s.http.get(`/v1/payments/${id}/checkout_session`);
    expectError(res, 404, "unknown_payment");
  });
});
