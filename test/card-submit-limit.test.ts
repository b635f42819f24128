// CARD_SUBMIT_LIMIT through the real facade and core: card submits on the hosted page are counted
// per client address and per payment, whatever the processor answers (declines and processor errors
// included), so one client cannot walk a list of card numbers through the page. The test client
// plays the load balancer in front of the facade (TRUST_PROXY names loopback).

import { randomInt } from "node:crypto";
import { beforeAll, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { createOk, useStack } from "./support/expect.ts";
import type { Res } from "./support/http.ts";

const WINDOW_S = 3600;
// allow503: the processor-error card answers the page's 503 "try again".
const stack = useStack({ allow503: true, env: { TRUST_PROXY: "127.0.0.1,::1", CARD_SUBMIT_LIMIT: `5/payment,20/ip,${WINDOW_S}s` } });
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Tarjetas" });
});

const DECLINED = "4000000000000002";
const PROCESSOR_ERROR = "4000000000000119";
const APPROVED = "4242424242424242";

const newPayment = (): Promise<{ id: string }> => createOk(stack().http, m.testApiKey, { amount: "5000", cancel_url: "https://shop.example/cart" });

function submit(paymentId: string, number: string, ip: string, locale = "es"): Promise<Res> {
  const body = new URLSearchParams({ card_number: number, card_expiry: "12/30", card_cvc: "123", card_name: "Ana López" }).toString();
  return stack().http.post(`/pay/${paymentId}`, {
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": locale, "x-forwarded-for": `192.0.2.${randomInt(1, 255)}, ${ip}` },
  });
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

test("200 declined card submits from one client are throttled: 20 reach the processor, the rest get a clear 429 page", async () => {
  const payments = await inBatches(
    Array.from({ length: 201 }, (_, i) => i),
    10,
    () => newPayment(),
  );
  const [other, ...mine] = payments as [{ id: string }, ...{ id: string }[]];
  const answers: Res[] = [];
  for (const p of mine) answers.push(await submit(p.id, DECLINED, "203.0.113.50"));
  const statuses = answers.map((r) => r.status);
  expect(statuses.slice(0, 20)).toEqual(Array(20).fill(303));
  expect(new Set(statuses.slice(20))).toEqual(new Set([429]));

  const limited = answers[20]!;
  expect(limited.headers["content-type"]).toMatch(/^text\/html/);
  const retryAfter = Number(limited.header("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
  expect(limited.text).toContain("Demasiados intentos con tarjeta");
  // The form is back, with what was typed (never the CVC), and the payment untouched.
  expect(limited.text).toContain('name="card_number"');
  expect(limited.text).toContain(DECLINED);
  expect(limited.text).not.toContain('value="123"');
  const english = await submit(mine[199]!.id, DECLINED, "203.0.113.50", "en");
  expect(english.status).toBe(429);
  expect(english.text).toContain("Too many card attempts");

  const failed = await stack().sql<{ n: string }>("select count(*) as n from payments where merchant_id = $1 and status = 'failed'", [m.merchantId]);
  expect(Number(failed[0]!.n)).toBe(20);
  // Another client is unaffected.
  expect((await submit(other.id, APPROVED, "198.51.100.50")).status).toBe(303);
});

test("one payment takes at most 5 card submits, whichever addresses they come from (processor errors count)", async () => {
  const p = await newPayment();
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await submit(p.id, PROCESSOR_ERROR, `198.51.100.${60 + i}`)).status);
  expect(statuses).toEqual([503, 503, 503, 503, 503, 429, 429]);
  expect((await stack().http.getPayment(m.testApiKey, p.id)).json.status).toBe("created");
});

test("submits refused by their address's limit do not use up the payment's submits", async () => {
  const spent = await inBatches(
    Array.from({ length: 20 }, (_, i) => i),
    10,
    () => newPayment(),
  );
  for (const p of spent) expect((await submit(p.id, DECLINED, "203.0.113.70")).status).toBe(303);
  const p = await newPayment();
  for (let i = 0; i < 8; i++) expect((await submit(p.id, APPROVED, "203.0.113.70")).status).toBe(429);
  // The customer on another connection still pays.
  const paid = await submit(p.id, APPROVED, "198.51.100.70");
  expect(paid.status).toBe(303);
  expect((await stack().http.getPayment(m.testApiKey, p.id)).json.status).toBe("captured");
});
