// The core's tRPC API (/trpc on the core's HTTP port), through the real tRPC client over HTTP.

import * as http from "node:http";
import { describe, expect, test } from "vitest";
import { createOk, useStack } from "./support/expect.ts";
import { newIdemKey } from "./support/http.ts";
import { trpcClient, trpcFailure } from "./support/trpc.ts";

const stack = useStack();

const client = (token: string | undefined) => trpcClient(stack(), token);
const operator = () => client(stack().internalToken);

describe("tRPC /trpc", () => {
  test.each([
    ["no token", undefined],
    ["a wrong token", "not-the-token"],
    ["an API key instead of the internal token", "sk_test_" + "A".repeat(32)],
  ])("every procedure refuses %s with unauthorized (401)", async (_name, token) => {
    const api = client(token);
    const calls = [
      () => api.merchants.create.mutate({ name: "X" }),
      () => api.keys.create.mutate({ merchant_id: "mer_x", mode: "test" }),
      () => api.keys.revoke.mutate({ id: "key_x" }),
      () => api.keys.roll.mutate({ id: "key_x", expires_in_seconds: 0 }),
      () => api.keys.list.query({ merchant_id: "mer_x", mode: "test" }),
      () => api.payments.get.query({ merchant_id: "mer_x", mode: "test", id: "pay_x" }),
      () => api.payments.list.query({ merchant_id: "mer_x", mode: "test" }),
      () => api.payments.simulate.mutate({ payment_id: "pay_x", step: "succeed" }),
      () => api.merchants.setReturnOrigins.mutate({ merchant_id: "mer_x", origins: [] }),
    ];
    for (const call of calls) expect(await trpcFailure(call())).toMatchObject({ code: "unauthorized", status: 401 });
  });

  test("merchants.create and keys.create issue keys that work on the REST API; keys.revoke ends them", async () => {
    const s = stack();
    const m = await operator().merchants.create.mutate({ name: "Tienda tRPC", currencies: ["GTQ"] });
    expect(Object.keys(m)).toEqual(["merchant_id", "test_api_key", "live_api_key"]);
    expect(m.merchant_id).toMatch(/^mer_[0-9a-f]{24}$/);
    expect(m.test_api_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(m.live_api_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect((await s.http.listPayments(m.test_api_key)).status).toBe(200);

    const key = await operator().keys.create.mutate({ merchant_id: m.merchant_id, mode: "test", expires_at: "2099-01-01T00:00:00.000Z" });
    expect(key).toMatchObject({ mode: "test", expires_at: "2099-01-01T00:00:00.000Z" });
    expect(key.id).toMatch(/^key_[0-9a-f]{24}$/);
    expect((await s.http.listPayments(key.api_key)).status).toBe(200);
    expect(await operator().keys.revoke.mutate({ id: key.id })).toEqual({ id: key.id, revoked: true });
    expect((await s.http.listPayments(key.api_key)).status).toBe(401);
  });

  test("keys.roll keeps the old key working as long as asked, within API_KEY_ROLL_MAX; keys.list shows a merchant's keys of a mode without secrets", async () => {
    const s = stack();
    const m = await operator().merchants.create.mutate({ name: "Tienda Rotada", currencies: ["GTQ"] });
    const key = await operator().keys.create.mutate({ merchant_id: m.merchant_id, mode: "test" });
    const rolled = await operator().keys.roll.mutate({ id: key.id, expires_in_seconds: 86_400 });
    expect(rolled.id).toBe(key.id);
    expect(Date.parse(rolled.expires_at) - Date.now()).toBeGreaterThan(86_000_000);
    expect(rolled.new_key).toMatchObject({ mode: "test", expires_at: null });
    for (const secret of [key.api_key, rolled.new_key.api_key]) expect((await s.http.listPayments(secret)).status).toBe(200);
    expect(await trpcFailure(operator().keys.roll.mutate({ id: rolled.new_key.id, expires_in_seconds: 7 * 86_400 + 1 }))).toMatchObject({
      code: "validation_error",
      status: 400,
    });
    const listed = await operator().keys.list.query({ merchant_id: m.merchant_id, mode: "test" });
    // Newest first: the rolled-in key, the rolled one, and the key merchants.create made.
    expect(listed.data.map((k) => k.id).slice(0, 2)).toEqual([rolled.new_key.id, key.id]);
    expect(listed.data).toHaveLength(3);
    expect(listed.data.find((k) => k.id === key.id)).toMatchObject({ status: "active", expires_at: rolled.expires_at, last4: key.api_key.slice(-4) });
    expect(JSON.stringify(listed)).not.toContain(key.api_key);
    expect((await operator().keys.list.query({ merchant_id: m.merchant_id, mode: "live" })).data).toHaveLength(1);
  });

  test("bad input is validation_error (400), from the tRPC input schema and from the domain alike", async () => {
    expect(await trpcFailure(operator().merchants.create.mutate({ name: "" }))).toMatchObject({ code: "validation_error", status: 400 });
    expect(await trpcFailure(operator().merchants.create.mutate({ name: "X", currencies: ["EUR"] }))).toMatchObject({ code: "validation_error", status: 400 });
    expect(await trpcFailure(operator().keys.create.mutate({ merchant_id: "mer_000000000000000000000000", mode: "test" }))).toMatchObject({
      code: "validation_error",
    });
    expect(await trpcFailure(operator().keys.create.mutate({ merchant_id: "mer_x", mode: "sandbox" }))).toMatchObject({ code: "validation_error" });
    // @ts-expect-error: an unknown field is refused, not ignored
    expect(await trpcFailure(operator().payments.list.query({ merchant_id: "mer_x", mode: "test", colour: "blue" }))).toMatchObject({
      code: "validation_error",
    });
    // @ts-expect-error: mode is test or live
    expect(await trpcFailure(operator().payments.list.query({ merchant_id: "mer_x", mode: "sandbox" }))).toMatchObject({ code: "validation_error" });
    expect(await trpcFailure(operator().payments.simulate.mutate({ payment_id: "pay_x", step: "teleport" }))).toMatchObject({ code: "validation_error" });
  });

  test("a body over TRPC_MAX_BODY_BYTES (1 MiB by default) is refused with 413 as it arrives, with or without a Content-Length; nothing is created", async () => {
    const url = `${stack().coreHttpUrl}/trpc/merchants.create`;
    const headers = { authorization: `Bearer ${stack().internalToken}`, "content-type": "application/json" };
    const name = `Too Large ${Date.now()}`;
    const body = JSON.stringify({ name: name + " ".repeat(1024 * 1024) });
    const res = await fetch(url, { method: "POST", headers, body });
    expect(res.status).toBe(413);
    const answer = (await res.json()) as { error: { message: string; data: { paytami_code: string; httpStatus: number } } };
    expect(answer.error.data).toMatchObject({ paytami_code: "validation_error", httpStatus: 413 });
    expect(answer.error.message).toMatch(/larger than 1048576 bytes/);
    // Chunked: no length announced, counted as it streams in.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, { method: "POST", headers }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on("error", reject);
      const chunk = " ".repeat(64 * 1024);
      req.write(`{"name":"${name}`);
      for (let i = 0; i < 20; i++) req.write(chunk);
      req.end('"}');
    });
    expect(chunked).toBe(413);
    expect(await stack().sql("select id from merchants where name like $1", [`${name}%`])).toEqual([]);
    // Just under the limit the call reaches the procedure (which has its own rules for a name).
    const under = await fetch(url, { method: "POST", headers, body: JSON.stringify({ name: name + " ".repeat(1024 * 1024 - 100 - name.length) }) });
    expect(under.status).not.toBe(413);
  });

  test("payments.get and payments.list return exactly what GET /v1/payments shows; other merchants and modes see nothing", async () => {
    const s = stack();
    const m = await s.admin.createMerchant({ name: "Lista" });
    const other = await s.admin.createMerchant({ name: "Otra" });
    const created = [await createOk(s.http, m.testApiKey), await createOk(s.http, m.testApiKey, { description: "segundo" })];
    const rest = (await s.http.getPayment(m.testApiKey, created[1].id)).json;

    expect(await operator().payments.get.query({ merchant_id: m.merchantId, mode: "test", id: created[1].id })).toEqual(rest);
    const page = await operator().payments.list.query({ merchant_id: m.merchantId, mode: "test", limit: 1 });
    expect(page).toEqual({ data: [rest], has_more: true });
    const next = await operator().payments.list.query({ merchant_id: m.merchantId, mode: "test", starting_after: created[1].id });
    expect(next.data.map((p) => p.id)).toEqual([created[0].id]);
    expect(await operator().payments.list.query({ merchant_id: m.merchantId, mode: "live" })).toEqual({ data: [], has_more: false });

    for (const actingFor of [
      { merchant_id: other.merchantId, mode: "test" as const },
      { merchant_id: m.merchantId, mode: "live" as const },
    ]) {
      expect(await trpcFailure(operator().payments.get.query({ ...actingFor, id: created[0].id }))).toMatchObject({ code: "unknown_payment", status: 404 });
    }
    expect(await trpcFailure(operator().payments.list.query({ merchant_id: m.merchantId, mode: "test", limit: 0 }))).toMatchObject({
      code: "validation_error",
    });
    expect(await trpcFailure(operator().payments.list.query({ merchant_id: m.merchantId, mode: "test", status: "nope" }))).toMatchObject({
      code: "validation_error",
    });
  });

  test("payments.simulate moves a payment through the state table and records its event in the outbox", async () => {
    const s = stack();
    const m = await s.admin.createMerchant({ name: "Simula" });
    const p = await createOk(s.http, m.testApiKey);
    const after = await operator().payments.simulate.mutate({ payment_id: p.id, step: "succeed" });
    expect(after).toEqual({ ...p, status: "captured" });
    expect(after).toEqual((await s.http.getPayment(m.testApiKey, p.id)).json);
    const events = await s.sql<{ type: string; data: unknown }>("select type, envelope->'data' as data from outbox_events where envelope->'data'->>'id' = $1", [
      p.id,
    ]);
    expect(events).toEqual([{ type: "payment.succeeded", data: after }]);
    // A resolved payment refuses the next step with the state table's code, and nothing is recorded.
    expect(await trpcFailure(operator().payments.simulate.mutate({ payment_id: p.id, step: "fail" }))).toMatchObject({
      code: "payment_not_payable",
      status: 409,
    });
    expect(await s.sql("select 1 from outbox_events where envelope->'data'->>'id' = $1", [p.id])).toHaveLength(1);
    expect(await trpcFailure(operator().payments.simulate.mutate({ payment_id: "pay_000000000000000000000000", step: "fail" }))).toMatchObject({
      code: "unknown_payment",
    });
  });
});

describe("tRPC's own refusals", () => {
  test.each([
    ["a mutation called with GET", "GET", "/trpc/keys.revoke?input=%7B%7D"],
    ["a query called with POST", "POST", "/trpc/payments.list"],
    ["an unknown procedure", "GET", "/trpc/payments.teleport"],
  ])("%s is the caller's mistake: validation_error, never internal_error", async (_name, method, url) => {
    const res = await fetch(`${stack().coreHttpUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${stack().internalToken}`, "content-type": "application/json" },
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { error: { message: string; data: { paytami_code: string } } };
    expect(body.error.data.paytami_code).toBe("validation_error");
    expect(body.error.message).not.toBe("Internal error.");
  });
});

describe("tRPC checkout lifecycle procedures", () => {
  test("payments.cancel acts for the merchant and mode like POST /v1/payments/{id}/cancel; merchants.setEmbedOrigins validates", async () => {
    const s = stack();
    const m = await operator().merchants.create.mutate({ name: "Tienda Cancel" });
    const p = await createOk(s.http, m.test_api_key);
    expect(await trpcFailure(operator().payments.cancel.mutate({ merchant_id: m.merchant_id, mode: "live", id: p.id }))).toMatchObject({
      code: "unknown_payment",
      status: 404,
    });
    expect(await operator().payments.cancel.mutate({ merchant_id: m.merchant_id, mode: "test", id: p.id })).toEqual({ ...p, status: "canceled" });
    expect(await trpcFailure(operator().payments.cancel.mutate({ merchant_id: m.merchant_id, mode: "test", id: p.id }))).toMatchObject({
      code: "payment_not_payable",
      status: 409,
    });
    const q = await createOk(s.http, m.test_api_key);
    expect((await operator().payments.simulate.mutate({ payment_id: q.id, step: "process" })).status).toBe("processing");
    expect(await operator().merchants.setEmbedOrigins.mutate({ merchant_id: m.merchant_id, origins: ["https://shop.example"] })).toEqual({
      merchant_id: m.merchant_id,
      origins: ["https://shop.example"],
    });
    expect(await trpcFailure(operator().merchants.setEmbedOrigins.mutate({ merchant_id: m.merchant_id, origins: ["https://*.shop.example"] }))).toMatchObject({
      code: "validation_error",
      status: 400,
    });
  });

  test("merchants.setReturnOrigins: canonical http(s) origins, the embed origins' rules otherwise; a public link pay then accepts them", async () => {
    const s = stack();
    const m = await operator().merchants.create.mutate({ name: "Tienda Return" });
    const set = await operator().merchants.setReturnOrigins.mutate({
      merchant_id: m.merchant_id,
      origins: ["https://Shop.Example:443/", "http://localhost:3000", "https://shop.example"],
    });
    expect(set).toEqual({ merchant_id: m.merchant_id, origins: ["https://shop.example", "http://localhost:3000"] });
    for (const bad of ["https://shop.example/thanks", "https://*.shop.example", "ftp://shop.example", "https://user@shop.example", "shop.example"]) {
      expect(await trpcFailure(operator().merchants.setReturnOrigins.mutate({ merchant_id: m.merchant_id, origins: [bad] })), bad).toMatchObject({
        code: "validation_error",
        status: 400,
      });
    }
    expect(await trpcFailure(operator().merchants.setReturnOrigins.mutate({ merchant_id: "mer_000000000000000000000000", origins: [] }))).toMatchObject({
      code: "validation_error",
      status: 400,
    });
    expect(
      await trpcFailure(
        operator().merchants.setReturnOrigins.mutate({ merchant_id: m.merchant_id, origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`) }),
      ),
    ).toMatchObject({ code: "validation_error", status: 400 });
    // A refused list changed nothing.
    expect((await s.sql<{ return_origins: string[] }>("select return_origins from merchants where id = $1", [m.merchant_id]))[0]!.return_origins).toEqual(
      set.origins,
    );

    const link = await s.http.post("/v1/payment_links", {
      key: m.test_api_key,
      idem: newIdemKey(),
      body: { title: "Camisa", currency: "GTQ", fixed_amount_minor: "1500" },
    });
    expect(link.status, link.text).toBe(201);
    const pay = (success_url: string) =>
      s.http.post(`/v1/payment_links/${link.json.id}/pay`, { idem: newIdemKey(), body: { method_type: "card", success_url } });
    expect((await pay("http://localhost:3000/thanks")).status).toBe(201);
    expect((await pay("https://evil.example/thanks")).status).toBe(400);
    expect(await operator().merchants.setReturnOrigins.mutate({ merchant_id: m.merchant_id, origins: [] })).toEqual({
      merchant_id: m.merchant_id,
      origins: [],
    });
    expect((await pay("http://localhost:3000/thanks")).status).toBe(400);
  });
});
