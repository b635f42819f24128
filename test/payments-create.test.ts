// POST /v1/payments and GET /v1/payments/{id}: spec 4.1, 4.2, 2.1; DESIGN §4 Money,
// Validation, Authentication (check order).

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { newIdemKey } from "./support/http.ts";
import { CREATED_AT_RE, expectError, expectPaymentShape, PAYMENT_ID_RE, randomHex, randomPaymentId, useStack, validBody } from "./support/expect.ts";

const stack = useStack();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Create" });
});

describe("POST /v1/payments", () => {
  test("creates a payment: 201, Payment object with exact fields, money as strings", async () => {
    const s = stack();
    const before = Date.now();
    const res = await s.http.createPayment(m.testApiKey, validBody({ amount: "12345" }));
    const after = Date.now();
    expect(res.status, res.text).toBe(201);
    // The body is the core-rendered bytes written through: still labelled JSON in UTF-8, not octet-stream.
    expect(res.header("content-type")).toBe("application/json; charset=utf-8");
    const p = res.json;
    expectPaymentShape(p, { publicBaseUrl: s.publicBaseUrl });
    expect(p).toMatchObject({
      status: "created",
      currency: "GTQ",
      amount: "12345",
      service_fee: "632", // 3.50 % of 12345 = 432.075 → 432, + 200
      net_amount: "11713",
    });
    expect(p.checkout_url).toBe(`${s.publicBaseUrl}/v1/checkout/${p.id}`);
    const created = Date.parse(p.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 5_000);
    expect(created).toBeLessThanOrEqual(after + 5_000);
    // The first response is not a replay.
    expect(res.header("idempotent-replayed")).not.toBe("true");
    // Raw JSON: amounts are JSON strings, never numbers.
    expect(res.text).toContain(`"amount":"12345"`);
    expect(res.text).toMatch(/"service_fee":"\d+"/);
    expect(res.text).toMatch(/"net_amount":"\d+"/);
  });

  test("GET /v1/payments/{id} returns the same object as the 201", async () => {
    const s = stack();
    const res = await s.http.createPayment(m.testApiKey, validBody({ description: "Pedido #42" }));
    expect(res.status, res.text).toBe(201);
    const got = await s.http.getPayment(m.testApiKey, res.json.id);
    expect(got.status, got.text).toBe(200);
    expect(got.header("content-type")).toBe("application/json; charset=utf-8");
    expectPaymentShape(got.json, { publicBaseUrl: s.publicBaseUrl, withDescription: true });
    expect(got.json).toEqual(res.json);
    // Same key order and bytes as the creation response.
    expect(got.text).toBe(res.text);
    expect(got.json.created_at).toMatch(CREATED_AT_RE);
  });

  test("ids are pay_ + 24 lowercase hex and unique", async () => {
    const s = stack();
    const ids = new Set<string>();
    const results = await Promise.all(Array.from({ length: 20 }, () => s.http.createPayment(m.testApiKey, validBody())));
    for (const r of results) {
      expect(r.status, r.text).toBe(201);
      expect(r.json.id).toMatch(PAYMENT_ID_RE);
      ids.add(r.json.id);
    }
    expect(ids.size).toBe(20);
  });

  test("description is present only when sent, and round-trips unicode", async () => {
    const s = stack();
    const without = await s.http.createPayment(m.testApiKey, validBody());
    expect(without.status).toBe(201);
    expect(Object.keys(without.json)).not.toContain("description");
    const desc = "Café con leche — pedido ñandú 🎉 <b>&amp;</b>";
    const withDesc = await s.http.createPayment(m.testApiKey, validBody({ description: desc }));
    expect(withDesc.status, withDesc.text).toBe(201);
    expectPaymentShape(withDesc.json, { publicBaseUrl: s.publicBaseUrl, withDescription: true });
    expect(withDesc.json.description).toBe(desc);
    const got = await s.http.getPayment(m.testApiKey, withDesc.json.id);
    expect(got.json.description).toBe(desc);
  });

  test("description of exactly 500 code points (emoji, 1000 UTF-16 units) is accepted", async () => {
    const s = stack();
    const desc = "😀".repeat(500);
    expect(desc.length).toBe(1000);
    const res = await s.http.createPayment(m.testApiKey, validBody({ description: desc }));
    expect(res.status, res.text).toBe(201);
    expect(res.json.description).toBe(desc);
    const ascii = "a".repeat(500);
    const res2 = await s.http.createPayment(m.testApiKey, validBody({ description: ascii }));
    expect(res2.status, res2.text).toBe(201);
  });

  test("customer {email, name} is accepted and not part of the Payment object", async () => {
    const s = stack();
    const res = await s.http.createPayment(m.testApiKey, validBody({ customer: { email: "ana.lopez@example.com", name: "Ana López" } }));
    expect(res.status, res.text).toBe(201);
    expectPaymentShape(res.json, { publicBaseUrl: s.publicBaseUrl });
    const onlyEmail = await s.http.createPayment(m.testApiKey, validBody({ customer: { email: "x@example.com" } }));
    expect(onlyEmail.status, onlyEmail.text).toBe(201);
    const empty = await s.http.createPayment(m.testApiKey, validBody({ customer: {} }));
    expect(empty.status, empty.text).toBe(201);
  });

  test.each([
    ["success_url of exactly 2048 characters", () => ({ success_url: "https://shop.example.com/" + "a".repeat(2048 - "https://shop.example.com/".length) })],
    [
      "URLs with port, query and fragment",
      () => ({ success_url: "https://shop.example.com:8443/ok?order=1&x=%20y#done", cancel_url: "http://localhost:3000/cancel" }),
    ],
    ["customer.name of exactly 200 code points (emoji)", () => ({ customer: { name: "👩🏽".repeat(100) } })],
    ["customer.email with plus tag and subdomains", () => ({ customer: { email: "ana+pagos@tienda.example.com.gt" } })],
    ["description with newlines and tabs", () => ({ description: "línea 1\nlínea 2\tfin" })],
    ["empty description", () => ({ description: "" })],
  ])("accepted at the boundary: %s", async (_label, change) => {
    const s = stack();
    const extra = change();
    const res = await s.http.createPayment(m.testApiKey, validBody(extra));
    expect(res.status, res.text).toBe(201);
    expectPaymentShape(res.json, { publicBaseUrl: s.publicBaseUrl, withDescription: "description" in extra });
  });

  // Content-Type with charset=utf-8 / UTF-8: bad-input.test.ts.
});

describe("fees (DESIGN §4 Money): percentage rounded half-up, net = amount − fee", () => {
  // [currency, method, amount, expected service_fee]; worked out by hand.
  const cases: Array<[string, string, string, string]> = [
    // card GTQ 3.50 % + 200
    ["GTQ", "card", "500", "218"], // 17.5 → 18 (half-up) + 200
    ["GTQ", "card", "501", "218"], // 17.535 → 18
    ["GTQ", "card", "700", "225"], // 24.5 → 25 (half-up)
    ["GTQ", "card", "1234", "243"], // 43.19 → 43
    ["GTQ", "card", "2099", "273"], // 73.465 → 73
    ["GTQ", "card", "2100", "274"], // 73.5 → 74 (half-up)
    ["GTQ", "card", "10000", "550"],
    ["GTQ", "card", "10000000", "350200"], // maximum
    // card USD 3.90 % + 30
    ["USD", "card", "100", "34"], // minimum; 3.9 → 4
    ["USD", "card", "500", "50"], // 19.5 → 20 (half-up)
    ["USD", "card", "1000", "69"],
    ["USD", "card", "1500", "89"], // 58.5 → 59 (half-up)
    ["USD", "card", "12345", "511"], // 481.455 → 481
    ["USD", "card", "1000000", "39030"], // maximum
    // bank_transfer GTQ 1.00 %, at least 300
    ["GTQ", "bank_transfer", "500", "300"],
    ["GTQ", "bank_transfer", "10000", "300"],
    ["GTQ", "bank_transfer", "30000", "300"],
    ["GTQ", "bank_transfer", "30049", "300"], // 300.49 → 300
    ["GTQ", "bank_transfer", "30050", "301"], // 300.5 → 301 (half-up)
    ["GTQ", "bank_transfer", "45650", "457"], // 456.5 → 457 (half-up)
    ["GTQ", "bank_transfer", "10000000", "100000"],
  ];

  test.each(cases)("%s %s amount %s → service_fee %s", async (currency, method, amount, fee) => {
    const s = stack();
    const res = await s.http.createPayment(m.testApiKey, validBody({ currency, method_type: method, amount }));
    expect(res.status, res.text).toBe(201);
    expectPaymentShape(res.json, { publicBaseUrl: s.publicBaseUrl });
    expect(res.json.amount).toBe(amount);
    expect(res.json.currency).toBe(currency);
    expect(res.json.service_fee).toBe(fee);
    expect(res.json.net_amount).toBe((BigInt(amount) - BigInt(fee)).toString());
    const got = await s.http.getPayment(m.testApiKey, res.json.id);
    expect(got.json.service_fee).toBe(fee);
    expect(got.json.net_amount).toBe((BigInt(amount) - BigInt(fee)).toString());
  });
});

describe("limits and merchant configuration", () => {
  // Amount limits per currency and USD bank_transfer: bad-input.test.ts.
  test("a currency the merchant has not enabled → currency_not_supported; a method it has not enabled → method_not_supported", async () => {
    const s = stack();
    const gtqOnly = await s.admin.createMerchant({ name: "Solo Quetzales", currencies: ["GTQ"], methods: ["card"] });
    const before = await s.paymentCount();
    const idem = `gtq-only-${Date.now()}`;
    const usd = await s.http.createPayment(gtqOnly.testApiKey, validBody({ currency: "USD", amount: "1000" }), { idem });
    expectError(usd, 400, "currency_not_supported");
    const bank = await s.http.createPayment(gtqOnly.testApiKey, validBody({ method_type: "bank_transfer" }), { idem });
    expectError(bank, 400, "method_not_supported");
    expect(await s.paymentCount()).toBe(before);
    // The refused requests bound nothing: the same key now creates a payment, not a replay or a conflict.
    const ok = await s.http.createPayment(gtqOnly.testApiKey, validBody(), { idem });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.headers["idempotent-replayed"]).toBeUndefined();
    expect(await s.paymentCount()).toBe(before + 1);
    // The default merchant has both currencies.
    const usdDefault = await s.http.createPayment(m.testApiKey, validBody({ currency: "USD", amount: "1000" }));
    expect(usdDefault.status, usdDefault.text).toBe(201);
  });

  test("check order after auth: body shape, then currency, then method, then amount limits", async () => {
    const s = stack();
    // Shape error wins over an unsupported currency.
    expectError(await s.http.createPayment(m.testApiKey, validBody({ currency: "EUR", amount: 1000 })), 400, "validation_error");
    // Currency wins over method and amount.
    expectError(
      await s.http.createPayment(m.testApiKey, validBody({ currency: "EUR", method_type: "bank_transfer", amount: "1" })),
      400,
      "currency_not_supported",
    );
    // Method wins over amount.
    expectError(
      await s.http.createPayment(m.testApiKey, validBody({ currency: "USD", method_type: "bank_transfer", amount: "1" })),
      400,
      "method_not_supported",
    );
    expectError(
      await s.http.createPayment(m.testApiKey, validBody({ currency: "USD", method_type: "bank_transfer", amount: "99999999" })),
      400,
      "method_not_supported",
    );
  });

  test("live mode: https URLs accepted, http URLs are validation_error; test mode accepts http", async () => {
    const s = stack();
    const live = await s.http.createPayment(m.liveApiKey, validBody());
    expect(live.status, live.text).toBe(201);
    expectPaymentShape(live.json, { publicBaseUrl: s.publicBaseUrl });
    const httpUrls = { success_url: "http://shop.example.com/ok", cancel_url: "http://shop.example.com/no" };
    const liveHttp = await s.http.createPayment(m.liveApiKey, validBody(httpUrls));
    expectError(liveHttp, 400, "validation_error");
    const testHttp = await s.http.createPayment(m.testApiKey, validBody(httpUrls));
    expect(testHttp.status, testHttp.text).toBe(201);
  });
});

describe("validation order (spec §7, DESIGN Idempotency)", () => {
  test("no Idempotency-Key and no credentials → 400 idempotency_key_required", async () => {
    const s = stack();
    const res = await s.http.post("/v1/payments", { body: validBody() });
    expectError(res, 400, "idempotency_key_required");
  });

  test("no Idempotency-Key, no credentials and an invalid body → still idempotency_key_required", async () => {
    const s = stack();
    const res = await s.http.post("/v1/payments", { body: "{not json", headers: { "content-type": "application/json" } });
    expectError(res, 400, "idempotency_key_required");
  });

  // An unreadable request is a body-shape error: it comes after the API key, so a client without a
  // valid key learns nothing about its body, and one with a valid key learns what is wrong with it.
  test.each([
    ["malformed JSON", { body: "{not json", headers: { "content-type": "application/json" } }],
    ["wrong Content-Type", { body: JSON.stringify(validBody()), headers: { "content-type": "text/plain" } }],
    ["unknown field", { body: validBody({ ammount: "1000" }) }],
    ["amount as a number", { body: validBody({ amount: 10000 }) }],
  ])("%s: 401 without a valid key, validation_error with one, nothing created", async (_label, request) => {
    const s = stack();
    const before = await s.paymentCount();
    for (const key of [undefined, "sk_test_" + "A".repeat(32)]) {
      expectError(await s.http.post("/v1/payments", { ...request, idem: newIdemKey(), ...(key ? { key } : {}) }), 401, "unauthorized");
    }
    expectError(await s.http.post("/v1/payments", { ...request, idem: newIdemKey(), key: m.testApiKey }), 400, "validation_error");
    expect(await s.paymentCount()).toBe(before);
  });

  test.each([
    ["empty", ""],
    ["1 character", "a"],
    ["7 characters", "abcdefg"],
  ])("Idempotency-Key %s → idempotency_key_required (with and without credentials)", async (_label, idem) => {
    const s = stack();
    const before = await s.paymentCount();
    expectError(await s.http.post("/v1/payments", { idem, body: validBody() }), 400, "idempotency_key_required");
    expectError(await s.http.post("/v1/payments", { idem, key: m.testApiKey, body: validBody() }), 400, "idempotency_key_required");
    expect(await s.paymentCount()).toBe(before);
  });

  test("exactly 8 characters is long enough", async () => {
    const s = stack();
    const res = await s.http.createPayment(m.testApiKey, validBody(), { idem: randomHex(8) });
    expect(res.status, res.text).toBe(201);
  });

  // Headers as functions: the merchant's key exists only once beforeAll ran.
  test.each<[string, () => string | undefined]>([
    ["no Authorization header", () => undefined],
    ["empty bearer", () => "Bearer "],
    ["not a bearer", () => "Basic dXNlcjpwYXNz"],
    ["malformed key", () => "Bearer sk_test_short"],
    ["unknown well-formed test key", () => "Bearer sk_test_" + "A".repeat(32)],
    ["unknown well-formed live key", () => "Bearer sk_live_" + "b".repeat(32)],
    ["publishable-looking key", () => "Bearer pk_test_" + "A".repeat(32)],
    ["key with a trailing character", () => `Bearer ${m.testApiKey}x`],
    ["key without the Bearer scheme", () => m.testApiKey],
  ])("valid Idempotency-Key with %s → 401 unauthorized", async (_label, auth) => {
    const s = stack();
    const before = await s.paymentCount();
    const header = auth();
    const res = await s.http.post("/v1/payments", {
      idem: newIdemKey(),
      body: validBody(),
      headers: header === undefined ? {} : { authorization: header },
    });
    expectError(res, 401, "unauthorized");
    expect(await s.paymentCount()).toBe(before);
  });

  test("credentials are checked before the body: invalid body without credentials → 401", async () => {
    const s = stack();
    const res = await s.http.post("/v1/payments", {
      idem: newIdemKey(),
      body: { amount: 5 },
    });
    expectError(res, 401, "unauthorized");
  });
});

describe("GET /v1/payments/{id}", () => {
  test("unknown and malformed ids → 404 unknown_payment", async () => {
    const s = stack();
    for (const id of [randomPaymentId(), "pay_123", "nope", "pay_" + "A".repeat(24), "pay_" + "0".repeat(25), "link_" + "0".repeat(24)]) {
      expectError(await s.http.getPayment(m.testApiKey, encodeURIComponent(id)), 404, "unknown_payment");
    }
  });

  test("without credentials → 401 even for an existing id", async () => {
    const s = stack();
    const res = await s.http.createPayment(m.testApiKey, validBody());
    expect(res.status).toBe(201);
    expectError(await s.http.getPayment(undefined, res.json.id), 401, "unauthorized");
    expectError(await s.http.getPayment("sk_test_" + "Z".repeat(32), res.json.id), 401, "unauthorized");
  });

  test("status changes are visible on GET; the object keeps its shape", async () => {
    const s = stack();
    const res = await s.http.createPayment(m.testApiKey, validBody({ amount: "2100" }));
    expect(res.status).toBe(201);
    await s.admin.simulate(res.json.id, "succeed");
    const got = await s.http.getPayment(m.testApiKey, res.json.id);
    expect(got.status).toBe(200);
    expectPaymentShape(got.json, { publicBaseUrl: s.publicBaseUrl });
    expect(got.json.status).toBe("captured");
    expect({ ...got.json, status: "created" }).toEqual(res.json);
  });
});
