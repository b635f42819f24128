// Authentication and data isolation: spec §5, 4.2, 4.3; DESIGN §4 Authentication.

import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import type { Res } from "./support/http.ts";
import { createOk, expectError, randomPaymentId, useStack, validBody } from "./support/expect.ts";

const stack = useStack();
let a: Merchant;
let b: Merchant;

beforeAll(async () => {
  a = await stack().admin.createMerchant({ name: "Merchant A" });
  b = await stack().admin.createMerchant({ name: "Merchant B" });
});

/** The 404 for a foreign id must be indistinguishable from the one for a nonexistent id. */
function expectSameAsNonexistent(foreign: Res, foreignId: string, missing: Res, missingId: string): void {
  expectError(foreign, 404, "unknown_payment");
  expectError(missing, 404, "unknown_payment");
  const norm = (r: Res, id: string) => r.text.split(id).join("<ID>");
  expect(norm(foreign, foreignId)).toBe(norm(missing, missingId));
  expect(foreign.header("content-type")).toBe(missing.header("content-type"));
}

describe("API keys", () => {
  test("admin-issued keys have the documented format", async () => {
    expect(a.testApiKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(a.liveApiKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    const k = await stack().admin.createKey(a.merchantId, "test");
    expect(k.apiKey).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    const l = await stack().admin.createKey(a.merchantId, "live");
    expect(l.apiKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
  });

  test("a second key of the same merchant and mode sees the same payments", async () => {
    const s = stack();
    const p = await s.http.createPayment(a.testApiKey, validBody());
    expect(p.status).toBe(201);
    const k2 = await s.admin.createKey(a.merchantId, "test");
    const got = await s.http.getPayment(k2.apiKey, p.json.id);
    expect(got.status, got.text).toBe(200);
    expect(got.text).toBe(p.text);
  });

  test("a revoked key → 401 on create, get and list; other keys keep working", async () => {
    const s = stack();
    const k = await s.admin.createKey(a.merchantId, "test");
    const p = await s.http.createPayment(k.apiKey, validBody());
    expect(p.status, p.text).toBe(201);
    expect((await s.http.getPayment(k.apiKey, p.json.id)).status).toBe(200);
    expect((await s.http.listPayments(k.apiKey)).status).toBe(200);

    const r = await s.admin.revokeKey(k.id);
    expect(r.revoked).toBe(true);

    const before = await s.paymentCount();
    expectError(await s.http.createPayment(k.apiKey, validBody()), 401, "unauthorized");
    expectError(await s.http.getPayment(k.apiKey, p.json.id), 401, "unauthorized");
    expectError(await s.http.listPayments(k.apiKey), 401, "unauthorized");
    expect(await s.paymentCount()).toBe(before);
    // The merchant's other key still sees the payment.
    expect((await s.http.getPayment(a.testApiKey, p.json.id)).status).toBe(200);
  });

  test("an expired key → 401", async () => {
    const s = stack();
    const k = await s.admin.createKey(a.merchantId, "test", new Date(Date.now() + 3_600_000).toISOString());
    const p = await s.http.createPayment(k.apiKey, validBody());
    expect(p.status, p.text).toBe(201);
    // Its expiry passes: moved into the past rather than waited for, so a slow first request cannot
    // outlive the key (the core compares expires_at with its clock on every request).
    await s.sql("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [k.id]);
    const before = await s.paymentCount();
    expectError(await s.http.createPayment(k.apiKey, validBody()), 401, "unauthorized");
    expectError(await s.http.getPayment(k.apiKey, p.json.id), 401, "unauthorized");
    expectError(await s.http.listPayments(k.apiKey), 401, "unauthorized");
    expect(await s.paymentCount()).toBe(before);
  });

  test("a key created already expired → 401", async () => {
    const s = stack();
    const k = await s.admin.createKey(a.merchantId, "test", new Date(Date.now() - 60_000).toISOString());
    const before = await s.paymentCount();
    expectError(await s.http.createPayment(k.apiKey, validBody()), 401, "unauthorized");
    expectError(await s.http.getPayment(k.apiKey, randomPaymentId()), 401, "unauthorized");
    expectError(await s.http.listPayments(k.apiKey), 401, "unauthorized");
    expect(await s.paymentCount()).toBe(before);
  });

  // Headers as functions: the merchants' keys exist only once beforeAll ran.
  test.each<[string, () => string | undefined]>([
    ["missing", () => undefined],
    ["lowercase scheme only", () => "bearer"],
    ["Bearer with no key", () => "Bearer"],
    ["wrong prefix", () => "Bearer rk_test_" + "A".repeat(32)],
    ["too short", () => "Bearer sk_test_" + "A".repeat(31)],
    ["too long", () => "Bearer sk_test_" + "A".repeat(33)],
    ["non-base62", () => "Bearer sk_test_" + "A".repeat(31) + "-"],
    ["unknown", () => "Bearer sk_test_" + "9".repeat(32)],
    ["two keys", () => `Bearer ${a.testApiKey} ${b.testApiKey}`],
  ])("GET endpoints with a %s key → 401", async (_label, auth) => {
    const s = stack();
    const header = auth();
    const headers = header === undefined ? {} : { authorization: header };
    expectError(await s.http.get("/v1/payments", { headers }), 401, "unauthorized");
    expectError(await s.http.get(`/v1/payments/${randomPaymentId()}`, { headers }), 401, "unauthorized");
  });
});

describe("isolation", () => {
  test("another merchant's payment → 404 unknown_payment, exactly like a nonexistent id", async () => {
    const s = stack();
    const pa = await s.http.createPayment(a.testApiKey, validBody());
    expect(pa.status).toBe(201);
    const missingId = randomPaymentId();
    const foreign = await s.http.getPayment(b.testApiKey, pa.json.id);
    const missing = await s.http.getPayment(b.testApiKey, missingId);
    expectSameAsNonexistent(foreign, pa.json.id, missing, missingId);
    // A's own key still sees it.
    expect((await s.http.getPayment(a.testApiKey, pa.json.id)).status).toBe(200);
  });

  test("a live payment seen with a test key (and vice versa) → 404 like a nonexistent id", async () => {
    const s = stack();
    const live = await s.http.createPayment(a.liveApiKey, validBody());
    expect(live.status, live.text).toBe(201);
    const test_ = await s.http.createPayment(a.testApiKey, validBody());
    expect(test_.status, test_.text).toBe(201);
    const missingId = randomPaymentId();
    expectSameAsNonexistent(await s.http.getPayment(a.testApiKey, live.json.id), live.json.id, await s.http.getPayment(a.testApiKey, missingId), missingId);
    expectSameAsNonexistent(await s.http.getPayment(a.liveApiKey, test_.json.id), test_.json.id, await s.http.getPayment(a.liveApiKey, missingId), missingId);
    expect((await s.http.getPayment(a.liveApiKey, live.json.id)).status).toBe(200);
    // Another merchant's live key does not see it either.
    expectError(await s.http.getPayment(b.liveApiKey, live.json.id), 404, "unknown_payment");
  });

  test("the list shows only the key's own merchant and mode", async () => {
    const s = stack();
    const m1 = await s.admin.createMerchant({ name: "List Iso 1" });
    const m2 = await s.admin.createMerchant({ name: "List Iso 2" });
    const create = async (key: string, n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push((await createOk(s.http, key)).id);
      return ids;
    };
    const m1test = await create(m1.testApiKey, 3);
    const m1live = await create(m1.liveApiKey, 2);
    const m2test = await create(m2.testApiKey, 4);
    const ids = async (key: string) => {
      const r = await s.http.listPayments(key, { limit: "100" });
      expect(r.status, r.text).toBe(200);
      expect(r.json.has_more).toBe(false);
      return (r.json.data as any[]).map((p) => p.id).sort();
    };
    expect(await ids(m1.testApiKey)).toEqual([...m1test].sort());
    expect(await ids(m1.liveApiKey)).toEqual([...m1live].sort());
    expect(await ids(m2.testApiKey)).toEqual([...m2test].sort());
    expect(await ids(m2.liveApiKey)).toEqual([]);
  });

  test("starting_after with another merchant's or another mode's id → 400 validation_error", async () => {
    const s = stack();
    const pa = await s.http.createPayment(a.testApiKey, validBody());
    const pl = await s.http.createPayment(a.liveApiKey, validBody());
    expect(pa.status).toBe(201);
    expect(pl.status).toBe(201);
    expectError(await s.http.listPayments(b.testApiKey, { starting_after: pa.json.id }), 400, "validation_error");
    expectError(await s.http.listPayments(a.testApiKey, { starting_after: pl.json.id }), 400, "validation_error");
    expect((await s.http.listPayments(a.testApiKey, { starting_after: pa.json.id })).status).toBe(200);
  });
});
