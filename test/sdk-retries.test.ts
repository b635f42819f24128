// The SDK (facade/sdk) against the real stack: idempotent creates survive a connection cut after
// the server acted, 429 from link pay and 503 are retried after Retry-After, everything else fails
// at once with a typed PaytamiError carrying the catalog code, the status and the Request-Id.
import { once } from "node:events";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Paytami, PaytamiConnectionError, PaytamiError, type FetchLike } from "../facade/sdk/src/index.ts";
import { PAYMENT_ID_RE, useStack } from "./support/expect.ts";
import { FlakyProxy } from "./support/flaky-proxy.ts";
import type { Merchant } from "./support/stack.ts";

const WINDOW_S = 3;
const getStack = useStack({ env: { LINK_RATE_LIMIT: `2/ip,100/link,${WINDOW_S}s` } });

interface Attempt {
  method: string;
  url: string;
  idempotencyKey: string | null;
  at: number;
  status?: number;
  retryAfter?: string | null;
  requestId?: string | null;
  failed?: string;
}

/** The platform's fetch, noting each attempt the SDK makes (what it sent and what came back). */
function recordingFetch(attempts: Attempt[]): FetchLike {
  return async (input, init) => {
    const attempt: Attempt = {
      method: init.method ?? "GET",
      url: input,
      idempotencyKey: new Headers(init.headers).get("idempotency-key"),
      at: Date.now(),
    };
    attempts.push(attempt);
    try {
      const response = await fetch(input, init);
      attempt.status = response.status;
      attempt.retryAfter = response.headers.get("retry-after");
      attempt.requestId = response.headers.get("request-id");
      return response;
    } catch (error) {
      attempt.failed = String(error);
      throw error;
    }
  };
}

const body = {
  amount: "12500",
  currency: "GTQ",
  method_type: "card",
  success_url: "https://shop.example.com/ok",
  cancel_url: "https://shop.example.com/cart",
} as const;
let merchant: Merchant;

beforeAll(async () => {
  merchant = await getStack().admin.createMerchant({ name: "Tienda SDK" });
});

const paymentsOf = async (merchantId: string) =>
  (await getStack().sql<{ id: string }>("select id from payments where merchant_id = $1 order by created_at, seq", [merchantId])).map((r) => r.id);

describe("a create whose answer is lost", () => {
  let proxy: FlakyProxy;
  beforeAll(async () => {
    proxy = await new FlakyProxy(getStack().baseUrl, 0).start();
  });
  afterAll(() => proxy.stop());

  test("is retried with the same Idempotency-Key and makes one payment", async () => {
    const m = await getStack().admin.createMerchant({ name: "Tienda Corte" });
    const attempts: Attempt[] = [];
    const paytami = new Paytami(m.testApiKey, { baseUrl: proxy.url, maxRetries: 2, fetch: recordingFetch(attempts) });
    proxy.dropResponses = 1;
    const payment = await paytami.payments.create(body);
    expect(proxy.dropped).toBe(1);
    expect(payment.id).toMatch(PAYMENT_ID_RE);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.failed).toBeDefined();
    expect(attempts[1]!.status).toBe(201);
    expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    expect(attempts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    // The first attempt created it; the second got its replay.
    expect(await paymentsOf(m.merchantId)).toEqual([payment.id]);
    expect(await paytami.payments.retrieve(payment.id)).toEqual(payment);
  });

  test("without retries: PaytamiConnectionError with the key, and calling again with that key still makes one payment", async () => {
    const m = await getStack().admin.createMerchant({ name: "Tienda Corte Dos" });
    const paytami = new Paytami(m.testApiKey, { baseUrl: proxy.url, maxRetries: 0 });
    proxy.dropResponses = 1;
    const lost = await paytami.payments.create(body).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(PaytamiConnectionError);
    const key = (lost as PaytamiConnectionError).idempotencyKey!;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const [created] = await paymentsOf(m.merchantId);
    const again = await paytami.payments.create(body, { idempotencyKey: key });
    expect(again.id).toBe(created);
    expect(await paymentsOf(m.merchantId)).toEqual([created]);
  });

  test("two creates without a key of their own are two payments (each call its own key)", async () => {
    const m = await getStack().admin.createMerchant({ name: "Tienda Dos Pagos" });
    const paytami = new Paytami(m.testApiKey, { baseUrl: getStack().baseUrl });
    const [a, b] = [await paytami.payments.create(body), await paytami.payments.create(body)];
    expect(a.id).not.toBe(b.id);
    expect((await paymentsOf(m.merchantId)).sort()).toEqual([a.id, b.id].sort());
  });
});

describe("429 and 503", () => {
  test("a 429 from link pay is retried after Retry-After, with the same key, and pays once", async () => {
    const attempts: Attempt[] = [];
    const paytami = new Paytami(merchant.testApiKey, { baseUrl: getStack().baseUrl, maxRetries: 3, fetch: recordingFetch(attempts) });
    const link = await paytami.links.create({ title: "Café", currency: "GTQ", fixed_amount_minor: "2500" });
    // Two attempts per IP per window: pay until one call meets the limit (the window may turn between calls).
    let limited: { attempts: Attempt[]; paymentId: string } | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const before = attempts.length;
      const payment = await paytami.links.pay(link.id, { method_type: "card" });
      const mine = attempts.slice(before);
      if (mine.some((a) => a.status === 429)) limited = { attempts: mine, paymentId: payment.id };
    }
    expect(limited, "no call met the rate limit").toBeDefined();
    const [first, ...rest] = limited!.attempts;
    expect(first!.status).toBe(429);
    const retryAfter = Number(first!.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    const last = rest.at(-1)!;
    expect(last.status).toBe(201);
    expect(last.at - first!.at).toBeGreaterThanOrEqual(retryAfter * 1000);
    expect(new Set(limited!.attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    const rows = await getStack().sql<{ n: string }>("select count(*)::text as n from payments where link_id = $1 and id = $2", [link.id, limited!.paymentId]);
    expect(rows[0]!.n).toBe("1");
  });

  test("a 503 with Retry-After is retried; the answer after it is the API's", async () => {
    // A loopback server in front of the facade that is "unavailable" for its first request.
    let requests = 0;
    const front = http.createServer((req, res) => {
      requests++;
      if (requests === 1) {
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1", "request-id": "front-503" });
        res.end(JSON.stringify({ error: { code: "processor_unavailable", message: "try again" } }));
        return;
      }
      const upstream = http.request(getStack().baseUrl + req.url!, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    front.listen(0, "127.0.0.1");
    await once(front, "listening");
    try {
      const attempts: Attempt[] = [];
      const paytami = new Paytami(merchant.testApiKey, {
        baseUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
        fetch: recordingFetch(attempts),
      });
      const payment = await paytami.payments.create(body);
      expect(attempts.map((a) => a.status)).toEqual([503, 201]);
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1000);
      expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
      expect((await getStack().http.getPayment(merchant.testApiKey, payment.id)).json).toEqual(payment);
    } finally {
      await new Promise((resolve) => front.close(resolve));
    }
  });
});

describe("typed errors", () => {
  test("the catalog code, status and Request-Id; a client error is not retried", async () => {
    const attempts: Attempt[] = [];
    const paytami = new Paytami(merchant.testApiKey, { baseUrl: getStack().baseUrl, fetch: recordingFetch(attempts) });
    const unknown = await paytami.payments.retrieve("pay_000000000000000000000000").catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(PaytamiError);
    expect(unknown).toMatchObject({ code: "unknown_payment", status: 404, requestId: attempts[0]!.requestId });
    expect((unknown as PaytamiError).requestId).toBeTruthy();
    expect(attempts).toHaveLength(1);

    await expect(paytami.payments.create({ ...body, amount: "12.50" })).rejects.toMatchObject({ code: "validation_error", status: 400 });
    await expect(paytami.payments.create({ ...body, currency: "EUR" })).rejects.toMatchObject({ code: "currency_not_supported", status: 400 });
    await expect(paytami.payments.create(body, { idempotencyKey: "short" })).rejects.toMatchObject({ code: "idempotency_key_required", status: 400 });
    const key = crypto.randomUUID();
    await paytami.payments.create(body, { idempotencyKey: key });
    await expect(paytami.payments.create({ ...body, amount: "13000" }, { idempotencyKey: key })).rejects.toMatchObject({
      code: "idempotency_key_reused",
      status: 409,
    });
    await expect(paytami.payments.list({ limit: 0 })).rejects.toMatchObject({ code: "validation_error", status: 400 });
    const stranger = new Paytami(`sk_test_${"Z".repeat(32)}`, { baseUrl: getStack().baseUrl });
    await expect(stranger.payments.list()).rejects.toMatchObject({ name: "PaytamiError", code: "unauthorized", status: 401 });
    expect(attempts.every((a) => a.status !== undefined && a.status < 500)).toBe(true);
  });

  test("no server at all: maxRetries + 1 attempts, then PaytamiConnectionError", async () => {
    const closed = http.createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const attempts: Attempt[] = [];
    const paytami = new Paytami(merchant.testApiKey, { baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2, fetch: recordingFetch(attempts) });
    const error = await paytami.payments.create(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaytamiConnectionError);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.idempotencyKey)).size).toBe(1);
  });

  test("a timeout counts as no answer and is retried", async () => {
    // A server that takes the request and never answers the first one.
    let seen = 0;
    const slow = http.createServer((req, res) => {
      seen++;
      if (seen === 1) return; // hangs
      const upstream = http.request(getStack().baseUrl + req.url!, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    slow.listen(0, "127.0.0.1");
    await once(slow, "listening");
    try {
      const paytami = new Paytami(merchant.testApiKey, { baseUrl: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`, timeoutMs: 500 });
      const page = await paytami.payments.list({ limit: 1 });
      expect(page.data).toHaveLength(1);
      expect(seen).toBe(2);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
