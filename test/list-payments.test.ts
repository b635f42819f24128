// GET /v1/payments: spec 4.3; DESIGN §4 Listing.

import { describe, expect, test } from "vitest";
import type { Stack } from "./support/stack.ts";
import { ALL_STATES, createOk, driveToState, expectError, expectPaymentShape, useStack, walkPages } from "./support/expect.ts";

const stack = useStack();

async function createMany(s: Stack, key: string, n: number, parallel = 1, amount = "10000"): Promise<string[]> {
  const ids: string[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      ids[i] = (await createOk(s.http, key, { amount })).id;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return ids;
}

describe("GET /v1/payments", () => {
  test.each(["limit=abc", "colour=blue", "limit=1&limit=2", "status=nope"])(
    "a bad query (%s) is checked after the API key: 401 without a valid key, validation_error with one",
    async (query) => {
      const s = stack();
      const m = await s.admin.createMerchant({ name: "Consulta" });
      expectError(await s.http.get(`/v1/payments?${query}`), 401, "unauthorized");
      expectError(await s.http.get(`/v1/payments?${query}`, { key: "sk_test_" + "B".repeat(32) }), 401, "unauthorized");
      expectError(await s.http.get(`/v1/payments?${query}`, { key: m.testApiKey }), 400, "validation_error");
    },
  );

  test("a merchant with no payments gets {data: [], has_more: false}", async () => {
    const s = stack();
    const m = await s.admin.createMerchant();
    const r = await s.http.listPayments(m.testApiKey);
    expect(r.status, r.text).toBe(200);
    expect(r.header("content-type")).toMatch(/^application\/json/);
    expect(r.json).toEqual({ data: [], has_more: false });
    expect(Object.keys(r.json)).toEqual(["data", "has_more"]);
  });

  test("most recent first, default limit 25, items identical to GET /v1/payments/{id}", async () => {
    const s = stack();
    const m = await s.admin.createMerchant();
    const ids = await createMany(s, m.testApiKey, 30);
    const r = await s.http.listPayments(m.testApiKey);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.length).toBe(25);
    expect(r.json.has_more).toBe(true);
    const expected = [...ids].reverse().slice(0, 25);
    expect(r.json.data.map((p: any) => p.id)).toEqual(expected);
    let prev = Infinity;
    for (const p of r.json.data) {
      expectPaymentShape(p, { publicBaseUrl: s.publicBaseUrl });
      const t = Date.parse(p.created_at);
      expect(t).toBeLessThanOrEqual(prev);
      prev = t;
    }
    for (const p of r.json.data.slice(0, 5)) {
      const g = await s.http.getPayment(m.testApiKey, p.id);
      expect(g.json).toEqual(p);
    }
  });

  test("limit bounds: 1 and 100 are accepted; has_more is exact", async () => {
    const s = stack();
    const m = await s.admin.createMerchant();
    const ids = await createMany(s, m.testApiKey, 30, 4);
    const one = await s.http.listPayments(m.testApiKey, { limit: "1" });
    expect(one.status, one.text).toBe(200);
    expect(one.json.data.length).toBe(1);
    expect(one.json.has_more).toBe(true);
    const hundred = await s.http.listPayments(m.testApiKey, { limit: "100" });
    expect(hundred.status, hundred.text).toBe(200);
    expect(hundred.json.data.length).toBe(30);
    expect(hundred.json.has_more).toBe(false);
    expect(new Set(hundred.json.data.map((p: any) => p.id))).toEqual(new Set(ids));
    const exact = await s.http.listPayments(m.testApiKey, { limit: "30" });
    expect(exact.json.data.length).toBe(30);
    expect(exact.json.has_more).toBe(false);
    const minus = await s.http.listPayments(m.testApiKey, { limit: "29" });
    expect(minus.json.data.length).toBe(29);
    expect(minus.json.has_more).toBe(true);
    // The page after the last item is empty.
    const last = hundred.json.data[hundred.json.data.length - 1].id;
    const after = await s.http.listPayments(m.testApiKey, { starting_after: last });
    expect(after.status, after.text).toBe(200);
    expect(after.json).toEqual({ data: [], has_more: false });
  });

  test("walking every page with starting_after while payments are created concurrently returns each pre-existing payment exactly once", async () => {
    const s = stack();
    const m = await s.admin.createMerchant();
    const pre = await createMany(s, m.testApiKey, 57, 6);
    const preSet = new Set(pre);

    // Keep creating payments for the same merchant during the whole walk.
    let walking = true;
    const createdDuring: string[] = [];
    const creator = (async () => {
      while (walking) createdDuring.push((await createOk(s.http, m.testApiKey, { amount: "777" })).id);
    })();
    let pages: any[][];
    try {
      pages = await walkPages(s.http, m.testApiKey, 7, {}, async () => {
        // Make sure some inserts land between page fetches.
        createdDuring.push((await createOk(s.http, m.testApiKey, { amount: "778" })).id);
      });
    } finally {
      walking = false;
      await creator;
    }
    expect(createdDuring.length).toBeGreaterThan(5);
    const seen = pages.flat().map((p) => p.id as string);
    expect(new Set(seen).size, "no duplicates across pages").toBe(seen.length);
    const seenPre = seen.filter((id) => preSet.has(id));
    expect(seenPre.length).toBe(pre.length);
    expect(new Set(seenPre)).toEqual(preSet);
    // Anything else seen was created during the walk, and only on the first page
    // (newer than every cursor).
    const duringSet = new Set(createdDuring);
    for (const [i, page] of pages.entries()) {
      for (const p of page) {
        if (!preSet.has(p.id)) {
          expect(duringSet.has(p.id)).toBe(true);
          expect(i, `payment ${p.id} created during the walk showed up on page ${i}`).toBe(0);
        }
      }
    }
    // Pages are in creation order, descending.
    const times = pages.flat().map((p) => Date.parse(p.created_at));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThanOrEqual(times[i - 1]!);
  });

  test("payments sharing one created_at millisecond are still paged exactly once (internal sequence tiebreak)", async () => {
    const s = stack();
    const m = await s.admin.createMerchant();
    const ids = await createMany(s, m.testApiKey, 23, 4);
    await s.sql("UPDATE payments SET created_at = $1 WHERE id = ANY($2)", ["2026-01-15T10:00:00.123Z", ids]);
    for (const limit of [1, 3, 5, 22]) {
      const seen = (await walkPages(s.http, m.testApiKey, limit)).flat();
      expect(seen.length).toBe(23);
      expect(new Set(seen.map((p) => p.id))).toEqual(new Set(ids));
      for (const p of seen) expect(p.created_at).toBe("2026-01-15T10:00:00.123Z");
    }
    // The order is stable between walks.
    const w1 = (await walkPages(s.http, m.testApiKey, 4)).flat().map((p) => p.id);
    const w2 = (await walkPages(s.http, m.testApiKey, 6)).flat().map((p) => p.id);
    expect(w2).toEqual(w1);
  });

  test("status filter returns exactly the payments in that state, and pages within it", async () => {
    const s = stack();
    const m = await s.admin.createMerchant();
    const ids = await createMany(s, m.testApiKey, 9);
    const byState: Record<string, string[]> = {};
    const plan = ["captured", "captured", "captured", "failed", "canceled", "processing", "created", "created", "expired"];
    for (const [i, state] of plan.entries()) {
      const id = ids[i]!;
      await driveToState(s, id, state);
      (byState[state] ??= []).push(id);
    }
    for (const state of ALL_STATES) {
      const r = await s.http.listPayments(m.testApiKey, { status: state, limit: "100" });
      expect(r.status, r.text).toBe(200);
      const got = (r.json.data as any[]).map((p) => p.id).sort();
      expect(got, `status=${state}`).toEqual([...(byState[state] ?? [])].sort());
      for (const p of r.json.data) expect(p.status).toBe(state);
    }
    const pages = await walkPages(s.http, m.testApiKey, 1, { status: "captured" });
    const seen = pages.flat().map((p) => p.id);
    expect(seen).toEqual([...byState.captured!].reverse());
  });

  test("money fields in list items are strings", async () => {
    const s = stack();
    const m = await s.admin.createMerchant();
    await createMany(s, m.testApiKey, 2, 1, "4321");
    const r = await s.http.listPayments(m.testApiKey);
    expect(r.text).toContain(`"amount":"4321"`);
    for (const p of r.json.data) {
      expect(typeof p.amount).toBe("string");
      expect(typeof p.service_fee).toBe("string");
      expect(typeof p.net_amount).toBe("string");
    }
  });
});
