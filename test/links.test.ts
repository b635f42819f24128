// Payment links through real HTTP: management (REST), the public read and pay (spec 2.2, 4.6, 4.7;
// DESIGN §4 "Payment links", "Idempotency"), max_payments under concurrency.
//
// TRUST_PROXY is on so each test can speak from its own X-Forwarded-For address and stay clear of
// the per-IP rate limit, which test/links-rate-limit.test.ts checks on its own.

import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey, type Res } from "./support/http.ts";
import { createOk, expectError, randomHex, useStack } from "./support/expect.ts";

const stack = useStack({ env: { TRUST_PROXY: "true" } });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Links" });
});

const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

async function createLink(body: Record<string, unknown>, key = m.testApiKey): Promise<any> {
  const res = await stack().http.post("/v1/payment_links", { key, idem: newIdemKey(), body: { title: "Camisa típica", currency: "GTQ", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

function pay(linkId: string, body: unknown, opts: { idem?: string | undefined; ip?: string; headers?: Record<string, string> } = {}): Promise<Res> {
  return stack().http.post(`/v1/payment_links/${linkId}/pay`, {
    body,
    ...(opts.idem === undefined && "idem" in opts ? {} : { idem: opts.idem ?? newIdemKey() }),
    headers: { "x-forwarded-for": opts.ip ?? freshIp(), ...opts.headers },
  });
}

const linkPayments = async (linkId: string) =>
  Number((await stack().sql<{ n: string }>("select count(*) as n from payments where link_id = $1", [linkId]))[0]!.n);

describe("management", () => {
  test("POST /v1/payment_links creates a fixed link; the public read shows exactly the spec 2.2 view", async () => {
    const link = await createLink({ fixed_amount_minor: "15000", description: "Bordada a mano", max_payments: 3 });
    expect(link).toMatchObject({
      title: "Camisa típica",
      description: "Bordada a mano",
      merchant_trade_name: "Tienda Links",
      currency: "GTQ",
      amount_type: "fixed",
      fixed_amount_minor: "15000",
      min_amount_minor: null,
      max_amount_minor: null,
      payable: true,
      not_payable_reason: null,
      mode: "test",
      active: true,
      expires_at: null,
      max_payments: 3,
      succeeded_payments: 0,
      success_url: null,
      cancel_url: null,
    });
    expect(link.id).toMatch(/^link_[0-9a-f]{24}$/);
    const pub = await stack().http.get(`/v1/payment_links/${link.id}`);
    expect(pub.status).toBe(200);
    expect(pub.json).toStrictEqual({
      title: "Camisa típica",
      description: "Bordada a mano",
      merchant_trade_name: "Tienda Links",
      currency: "GTQ",
      amount_type: "fixed",
      fixed_amount_minor: "15000",
      min_amount_minor: null,
      max_amount_minor: null,
      payable: true,
      not_payable_reason: null,
    });
  });

  test("create: Idempotency-Key required, replay byte-identical, reuse with another body 409, auth 401", async () => {
    const http = stack().http;
    const body = { title: "Donación", currency: "GTQ", min_amount_minor: "1000", max_amount_minor: "500000" };
    expectError(await http.post("/v1/payment_links", { key: m.testApiKey, body }), 400, "idempotency_key_required");
    expectError(await http.post("/v1/payment_links", { idem: newIdemKey(), body }), 401, "unauthorized");
    const idem = newIdemKey();
    const first = await http.post("/v1/payment_links", { key: m.testApiKey, idem, body });
    const again = await http.post("/v1/payment_links", { key: m.testApiKey, idem, body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.header("idempotent-replayed")).toBe("true");
    expectError(await http.post("/v1/payment_links", { key: m.testApiKey, idem, body: { ...body, title: "Otra" } }), 409, "idempotency_key_reused");
  });

  test.each([
    [{ currency: "GTQ" }, "validation_error"],
    [{ fixed_amount_minor: "15000", min_amount_minor: "500", max_amount_minor: "900" }, "validation_error"],
    [{ min_amount_minor: "900", max_amount_minor: "500" }, "validation_error"],
    [{ fixed_amount_minor: 15000 }, "validation_error"],
    [{ fixed_amount_minor: "100" }, "amount_below_minimum"],
    [{ fixed_amount_minor: "10000001" }, "amount_above_maximum"],
    [{ fixed_amount_minor: "1000", currency: "EUR" }, "currency_not_supported"],
    [{ fixed_amount_minor: "1000", max_payments: 0 }, "validation_error"],
    [{ fixed_amount_minor: "1000", expires_at: "2000-01-01T00:00:00Z" }, "validation_error"],
    [{ fixed_amount_minor: "1000", success_url: "ftp://x" }, "validation_error"],
    [{ fixed_amount_minor: "1000", colour: "red" }, "validation_error"],
  ])("create refuses %j with %s", async (body, code) => {
    const res = await stack().http.post("/v1/payment_links", { key: m.testApiKey, idem: newIdemKey(), body: { title: "T", currency: "GTQ", ...body } });
    expectError(res, 400, code);
  });

  test("GET /v1/payment_links pages newest first with succeeded counts; another merchant sees none", async () => {
    const other = await stack().admin.createMerchant({ name: "Otra" });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createLink({ fixed_amount_minor: "1000", title: `L${i}` }, other.testApiKey)).id);
    const first = await stack().http.get("/v1/payment_links?limit=3", { key: other.testApiKey });
    expect(first.status).toBe(200);
    expect(first.json.data.map((l: any) => l.id)).toEqual(ids.slice(2).reverse());
    expect(first.json.has_more).toBe(true);
    const second = await stack().http.get(`/v1/payment_links?limit=3&starting_after=${ids[2]}`, { key: other.testApiKey });
    expect(second.json.data.map((l: any) => l.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.json.has_more).toBe(false);
    expect(second.json.data[0].succeeded_payments).toBe(0);
    const live = await stack().http.get("/v1/payment_links", { key: other.liveApiKey });
    expect(live.json).toEqual({ data: [], has_more: false });
    expectError(await stack().http.get("/v1/payment_links?limit=0", { key: other.testApiKey }), 400, "validation_error");
    expectError(await stack().http.get("/v1/payment_links"), 401, "unauthorized");
  });
});

describe("public read", () => {
  test("404 unknown_payment_link for unknown and malformed ids", async () => {
    for (const id of [`link_${randomHex(24)}`, "link_x", "pay_" + randomHex(24), "LINK_" + randomHex(24)]) {
      expectError(await stack().http.get(`/v1/payment_links/${id}`), 404, "unknown_payment_link");
      expectError(await pay(id, { method_type: "card" }), 404, "unknown_payment_link");
    }
  });
});

describe("pay", () => {
  test("a variable link: 201 Payment with the link's currency, fees and fallback URLs", async () => {
    const link = await createLink({ min_amount_minor: "1000", max_amount_minor: "500000" });
    const res = await pay(link.id, { amount: "25000", method_type: "card" });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      status: "created",
      currency: "GTQ",
      amount: "25000",
      service_fee: "1075",
      net_amount: "23925",
      description: "Camisa típica",
    });
    const [row] = await stack().sql<any>("select link_id, success_url, cancel_url, merchant_id, mode from payments where id = $1", [res.json.id]);
    expect(row).toEqual({
      link_id: link.id,
      success_url: `${stack().publicBaseUrl}/l/${link.id}/done`,
      cancel_url: `${stack().publicBaseUrl}/l/${link.id}/done`,
      merchant_id: m.merchantId,
      mode: "test",
    });
  });

  test("every error code of 4.7 with its status", async () => {
    const variable = await createLink({ min_amount_minor: "1000", max_amount_minor: "2000" });
    const fixed = await createLink({ fixed_amount_minor: "1500" });
    expectError(await pay(variable.id, { method_type: "card", amount: "1500" }, { idem: undefined }), 400, "idempotency_key_required");
    expectError(await pay(variable.id, { method_type: "card", amount: "1500" }, { idem: "short" }), 400, "idempotency_key_required");
    expectError(await pay(`link_${randomHex(24)}`, { method_type: "card" }), 404, "unknown_payment_link");
    expectError(await pay(variable.id, { method_type: "card" }), 400, "amount_required");
    expectError(await pay(variable.id, { method_type: "card", amount: "999" }), 400, "amount_below_minimum");
    expectError(await pay(variable.id, { method_type: "card", amount: "2001" }), 400, "amount_above_maximum");
    expectError(await pay(fixed.id, { method_type: "card", amount: "1500" }), 400, "validation_error");
    expectError(await pay(fixed.id, { method_type: "paypal" }), 400, "validation_error");
    const usd = await createLink({ currency: "USD", fixed_amount_minor: "1500" });
    expectError(await pay(usd.id, { method_type: "bank_transfer" }), 400, "method_not_supported");
    const deactivated = await stack().core.links.deactivateLink({ acting_for: {}, link_id: fixed.id });
    expect(deactivated.link!.active).toBe(false);
    expectError(await pay(fixed.id, { method_type: "card" }), 409, "payment_link_not_payable");
    // The missing key is refused before the link is looked up.
    expectError(await pay(`link_${randomHex(24)}`, { method_type: "card" }, { idem: undefined }), 400, "idempotency_key_required");
  });

  test("≥25 malformed pay bodies: each a 400, none a 500, none creating a payment", async () => {
    const variable = await createLink({ min_amount_minor: "1000", max_amount_minor: "2000" });
    const fixed = await createLink({ fixed_amount_minor: "1500" });
    const before = await stack().paymentCount();
    const bad: Array<[string, unknown]> = [
      [variable.id, { method_type: "card", amount: 1500 }],
      [variable.id, { method_type: "card", amount: "15.00" }],
      [variable.id, { method_type: "card", amount: "-1500" }],
      [variable.id, { method_type: "card", amount: "01500" }],
      [variable.id, { method_type: "card", amount: "" }],
      [variable.id, { method_type: "card", amount: null }],
      [variable.id, { method_type: "card", amount: "12345678901234567" }],
      [variable.id, { method_type: 1, amount: "1500" }],
      [variable.id, { method_type: "CARD", amount: "1500" }],
      [variable.id, { amount: "1500" }],
      [variable.id, { method_type: "card", amount: "1500", ammount: "1" }],
      [variable.id, { method_type: "card", amount: "1500", currency: "GTQ" }],
      [variable.id, { method_type: "card", amount: "1500", success_url: "not a url" }],
      [variable.id, { method_type: "card", amount: "1500", cancel_url: "javascript:alert(1)" }],
      [variable.id, { method_type: "card", amount: "1500", success_url: 42 }],
      [variable.id, { method_type: "card", amount: "1500", customer: "ana" }],
      [variable.id, { method_type: "card", amount: "1500", customer: { email: "no-at" } }],
      [variable.id, { method_type: "card", amount: "1500", customer: { name: "a".repeat(201) } }],
      [variable.id, { method_type: "card", amount: "1500", customer: { phone: "1" } }],
      [variable.id, { method_type: "card", amount: "1500", customer: { name: "a\u0000b" } }],
      [variable.id, []],
      [variable.id, "card"],
      [variable.id, null],
      [variable.id, '{"method_type":"card",'],
      [variable.id, '{"method_type":"card","method_type":"card","amount":"1500"}'],
      [fixed.id, { method_type: "card", amount: "1500" }],
      [fixed.id, { method_type: "card", amount: null }],
      [fixed.id, { method_type: "card", success_url: "https://" }],
    ];
    for (const [linkId, body] of bad) {
      const res =
        typeof body === "string"
          ? await stack().http.post(`/v1/payment_links/${linkId}/pay`, {
              body,
              idem: newIdemKey(),
              headers: { "content-type": "application/json", "x-forwarded-for": freshIp() },
            })
          : await pay(linkId, body);
      expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBe(400);
      expect(res.json.error.code, JSON.stringify(body)).toBe("validation_error");
    }
    const wrongType = await stack().http.post(`/v1/payment_links/${variable.id}/pay`, {
      body: "method_type=card",
      idem: newIdemKey(),
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": freshIp() },
    });
    expectError(wrongType, 400, "validation_error");
    expect(await stack().paymentCount()).toBe(before);
  });

  test("30 concurrent pays with one key → one payment, 30 identical bodies", async () => {
    const link = await createLink({ fixed_amount_minor: "1500" });
    const idem = newIdemKey();
    const results = await Promise.all(Array.from({ length: 30 }, () => pay(link.id, { method_type: "card" }, { idem })));
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(await linkPayments(link.id)).toBe(1);
    expectError(await pay(link.id, { method_type: "bank_transfer" }, { idem }), 409, "idempotency_key_reused");
  });

  test("one key on two links → two payments; on a link and on POST /v1/payments → independent", async () => {
    const a = await createLink({ fixed_amount_minor: "1500" });
    const b = await createLink({ fixed_amount_minor: "1500" });
    const idem = newIdemKey();
    const onA = await pay(a.id, { method_type: "card" }, { idem });
    const onB = await pay(b.id, { method_type: "card" }, { idem });
    expect(onA.status).toBe(201);
    expect(onB.status).toBe(201);
    expect(onA.json.id).not.toBe(onB.json.id);
    const direct = await createOk(stack().http, m.testApiKey, { amount: "1500" });
    const directSameKey = await stack().http.createPayment(
      m.testApiKey,
      {
        amount: "1500",
        currency: "GTQ",
        method_type: "card",
        success_url: "https://s.example/ok",
        cancel_url: "https://s.example/no",
      },
      { idem },
    );
    expect(directSameKey.status).toBe(201);
    expect(directSameKey.json.id).not.toBe(onA.json.id);
    expect(direct.id).toBeDefined();
  });
});

describe("payability", () => {
  test("max_payments 1: two created payments driven to succeed at once → exactly one succeeds; the link is exhausted", async () => {
    const link = await createLink({ fixed_amount_minor: "1500", max_payments: 1 });
    const first = (await pay(link.id, { method_type: "card" })).json;
    const second = (await pay(link.id, { method_type: "card" })).json;
    const outcomes = await Promise.allSettled([first.id, second.id].map((id) => stack().admin.simulate(id, "succeed")));
    const succeeded = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(succeeded).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(String(refused[0]!.reason)).toMatch(/max_payments/);
    const statuses = await stack().sql<{ status: string }>("select status from payments where link_id = $1 order by status", [link.id]);
    expect(statuses.map((s) => s.status)).toEqual(["captured", "created"]);
    const pub = await stack().http.get(`/v1/payment_links/${link.id}`);
    expect(pub.status).toBe(200);
    expect(pub.json).toMatchObject({ payable: false, not_payable_reason: "exhausted" });
    expectError(await pay(link.id, { method_type: "card" }), 409, "payment_link_not_payable");
    const shown = await stack().core.links.getLink({ acting_for: {}, link_id: link.id });
    expect(shown.link!.succeeded_payments).toBe(1);
  });

  test("expired, inactive, and the precedence inactive → expired → exhausted; a replay still answers after", async () => {
    const link = await createLink({ fixed_amount_minor: "1500", max_payments: 1 });
    const idem = newIdemKey();
    const paid = await pay(link.id, { method_type: "card" }, { idem });
    await stack().admin.simulate(paid.json.id, "succeed");
    const reason = async () => (await stack().http.get(`/v1/payment_links/${link.id}`)).json.not_payable_reason;
    expect(await reason()).toBe("exhausted");
    await stack().sql("update links set expires_at = now() - interval '1 second' where id = $1", [link.id]);
    expect(await reason()).toBe("expired");
    await stack().core.links.deactivateLink({ acting_for: {}, link_id: link.id });
    expect(await reason()).toBe("inactive");
    const replay = await pay(link.id, { method_type: "card" }, { idem });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(paid.text);
    expectError(await pay(link.id, { method_type: "card" }), 409, "payment_link_not_payable");

    const expired = await createLink({ fixed_amount_minor: "1500" });
    await stack().sql("update links set expires_at = now() - interval '1 second' where id = $1", [expired.id]);
    expect((await stack().http.get(`/v1/payment_links/${expired.id}`)).json).toMatchObject({ payable: false, not_payable_reason: "expired" });
    expectError(await pay(expired.id, { method_type: "card" }), 409, "payment_link_not_payable");
  });
});

describe("return URLs of a public pay (no open redirect from our domain)", () => {
  /** The page's CSP form-action sources besides 'self'. */
  async function formTargets(paymentId: string): Promise<string[]> {
    const page = await stack().http.get(`/pay/${paymentId}`);
    expect(page.status, page.text).toBe(200);
    const directive = /(?:^|;\s*)form-action ([^;]*)/.exec(page.header("content-security-policy") ?? "")?.[1];
    const sources = directive!.trim().split(/\s+/);
    expect(sources[0]).toBe("'self'");
    return sources.slice(1);
  }
  const refusal = (res: Res) => ({ status: res.status, body: res.json });

  test("a URL on another origin is refused, naming the origins allowed; the link's own origins are accepted", async () => {
    const bare = await createLink({ fixed_amount_minor: "1500" });
    expect(refusal(await pay(bare.id, { method_type: "card", success_url: "https://evil.example/thanks" }))).toEqual({
      status: 400,
      body: {
        error: {
          code: "validation_error",
          message:
            "success_url is not accepted on this link: neither the link nor its merchant names an origin to return to; leave it out to return to the link's own page.",
        },
      },
    });
    const own = await createLink({ fixed_amount_minor: "1500", success_url: "https://shop.example/ok", cancel_url: "https://pay.shop.example/cart" });
    expect(refusal(await pay(own.id, { method_type: "card", success_url: "https://shop.example/other", cancel_url: "https://evil.example/cart" }))).toEqual({
      status: 400,
      body: {
        error: {
          code: "validation_error",
          message: "cancel_url must be on an origin this link's merchant trusts (https://shop.example, https://pay.shop.example), not https://evil.example.",
        },
      },
    });
    // Near misses are other origins: a port, the scheme, a sibling or a suffix host, credentials before the host.
    for (const url of [
      "https://shop.example:8443/ok",
      "http://shop.example/ok",
      "https://evil.shop.example/ok",
      "https://shop.example.evil.example/ok",
      "https://shop.example@evil.example/ok",
    ]) {
      expectError(await pay(own.id, { method_type: "card", success_url: url }), 400, "validation_error");
    }
    expect(await linkPayments(bare.id)).toBe(0);
    expect(await linkPayments(own.id)).toBe(0);

    const accepted = await pay(own.id, {
      method_type: "card",
      success_url: "https://SHOP.example/thanks?order=7",
      cancel_url: "https://pay.shop.example/back",
    });
    expect(accepted.status, accepted.text).toBe(201);
    const [row] = await stack().sql<any>("select success_url, cancel_url from payments where id = $1", [accepted.json.id]);
    expect(row).toEqual({ success_url: "https://SHOP.example/thanks?order=7", cancel_url: "https://pay.shop.example/back" });
    expect(await formTargets(accepted.json.id)).toEqual(["https://shop.example", "https://pay.shop.example"]);
  });

  test("the merchant's registered return origins are accepted (http only in test mode); the check is body validation, for gRPC callers too", async () => {
    const merchant = await stack().admin.createMerchant({ name: "Tienda Orígenes" });
    await stack().core.admin.setReturnOrigins({ merchant_id: merchant.merchantId, origins: ["https://www.shop.example", "http://localhost:3000"] });
    const link = await createLink({ fixed_amount_minor: "1500" }, merchant.testApiKey);
    const paid = await pay(link.id, { method_type: "card", success_url: "https://www.shop.example/thanks", cancel_url: "http://localhost:3000/cart" });
    expect(paid.status, paid.text).toBe(201);
    expect(await formTargets(paid.json.id)).toEqual(["https://www.shop.example", "http://localhost:3000"]);
    expect(refusal(await pay(link.id, { method_type: "card", success_url: "https://evil.example/" }))).toEqual({
      status: 400,
      body: {
        error: {
          code: "validation_error",
          message: "success_url must be on an origin this link's merchant trusts (https://www.shop.example, http://localhost:3000), not https://evil.example.",
        },
      },
    });
    // Either field off the trusted origins refuses the pay, whatever the other one names.
    expectError(
      await pay(link.id, { method_type: "card", success_url: "https://www.shop.example/thanks", cancel_url: "https://evil.example/" }),
      400,
      "validation_error",
    );

    // Live return URLs are https only, so only the https origin is named there.
    const live = await createLink({ fixed_amount_minor: "1500" }, merchant.liveApiKey);
    expect(refusal(await pay(live.id, { method_type: "card", success_url: "https://evil.example/" })).body.error.message).toBe(
      "success_url must be on an origin this link's merchant trusts (https://www.shop.example), not https://evil.example.",
    );
    expect((await pay(live.id, { method_type: "card", success_url: "https://www.shop.example/thanks" })).status).toBe(201);

    // Body validation comes before payability (README "Pay check order").
    await stack().core.links.deactivateLink({ acting_for: {}, link_id: link.id });
    expectError(await pay(link.id, { method_type: "card", success_url: "https://evil.example/" }), 400, "validation_error");
    expectError(await pay(link.id, { method_type: "card", success_url: "https://www.shop.example/thanks" }), 409, "payment_link_not_payable");

    // The rule lives in the core's operation: a gRPC caller gets it as well.
    const open = await createLink({ fixed_amount_minor: "1500" }, merchant.testApiKey);
    await expect(
      stack().core.links.payLink({
        link_id: open.id,
        idempotency_key: newIdemKey(),
        method_type: "card",
        success_url: "https://evil.example/",
        client_ip: freshIp(),
      }),
    ).rejects.toMatchObject({ code: "validation_error" });
    expect(await linkPayments(open.id)).toBe(0);
  });
});

describe("bidi controls in text customers read", () => {
  test.each([
    ["title", { title: "Camisa \u202Eacipit" }],
    ["title", { title: "\u2066Camisa" }],
    ["description", { description: "Talla M\u200F" }],
    ["description", { description: "Talla \u061CM" }],
  ])("a link %s with one is refused, nothing created", async (field, body) => {
    const res = await stack().http.post("/v1/payment_links", {
      key: m.testApiKey,
      idem: newIdemKey(),
      body: { title: "Camisa", currency: "GTQ", fixed_amount_minor: "1500", ...body },
    });
    expectError(res, 400, "validation_error");
    expect(res.json.error.message).toBe(`${field} must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).`);
  });

  test("a payment description and a paying customer's name with one are refused; right-to-left letters alone are fine", async () => {
    const body = { amount: "1500", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
    const payment = await stack().http.createPayment(m.testApiKey, { ...body, description: "Pedido \u202D42" });
    expectError(payment, 400, "validation_error");
    expect(payment.json.error.message).toMatch(/^description must not contain bidirectional control characters/);
    const link = await createLink({ fixed_amount_minor: "1500" });
    const paid = await pay(link.id, { method_type: "card", customer: { name: "Ana\u202AX" } });
    expectError(paid, 400, "validation_error");
    expect(paid.json.error.message).toMatch(/^customer\.name must not contain bidirectional control characters/);
    expect(await linkPayments(link.id)).toBe(0);
    expect((await stack().http.createPayment(m.testApiKey, { ...body, description: "طلب ٤٢ · הזמנה" })).status).toBe(201);
    expect((await createLink({ fixed_amount_minor: "1500", title: "قميص" })).title).toBe("قميص");
  });

  test("a merchant name with one is refused through gRPC", async () => {
    await expect(stack().core.admin.createMerchant({ name: "Tienda\u202Eodagac", currencies: [], methods: [] })).rejects.toMatchObject({
      code: "validation_error",
    });
  });
});
