// PUBLIC_ROUTE_LIMIT: the public routes addressed by a payment or link id (status polls, QR codes,
// the hosted pages, the public link and checkout lookups) take at most so many requests per client
// address and window on each facade; another client is unaffected. JSON callers get the catalog's
// rate_limited, people a page, both with Retry-After.

import { expect, test } from "vitest";
import { createLink } from "./support/link-fixtures.ts";
import { createOk, expectError, useStack } from "./support/expect.ts";

const stack = useStack({ env: { TRUST_PROXY: "1", PUBLIC_ROUTE_LIMIT: "12/ip,3600s" } });

test("status polls, QR codes and pages of one client are throttled together; another client is not", async () => {
  const m = await stack().admin.createMerchant({ name: "Tienda Sondeo" });
  const p = await createOk(stack().http, m.testApiKey);
  const link = await createLink(stack(), m);
  const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

  const answers = [];
  for (let i = 0; i < 4; i++) answers.push((await stack().http.get(`/pay/${p.id}/status`, from("203.0.113.80"))).status);
  for (let i = 0; i < 4; i++) answers.push((await stack().http.get(`/l/${link.id}/qr.svg`, from("203.0.113.80"))).status);
  for (let i = 0; i < 4; i++) answers.push((await stack().http.get(`/v1/payment_links/${link.id}`, from("203.0.113.80"))).status);
  expect(answers).toEqual(Array(12).fill(200));

  const poll = await stack().http.get(`/pay/${p.id}/status`, from("203.0.113.80"));
  expectError(poll, 429, "rate_limited");
  expect(Number(poll.header("retry-after"))).toBeGreaterThanOrEqual(1);
  expectError(await stack().http.get(`/l/${link.id}/qr.svg`, from("203.0.113.80")), 429, "rate_limited");
  // Unknown ids count too: guessing ids is what the limit slows down.
  expectError(await stack().http.get(`/pay/pay_000000000000000000000000/status`, from("203.0.113.80")), 429, "rate_limited");

  const page = await stack().http.get(`/pay/${p.id}`, { headers: { "x-forwarded-for": "203.0.113.80", accept: "text/html", "accept-language": "en" } });
  expect(page.status).toBe(429);
  expect(page.headers["content-type"]).toMatch(/^text\/html/);
  expect(page.headers["cache-control"]).toBe("no-store");
  expect(page.text).toContain("Too many requests");

  expect((await stack().http.get(`/pay/${p.id}/status`, from("198.51.100.80"))).status).toBe(200);
  expect((await stack().http.get(`/l/${link.id}/qr.svg`, from("198.51.100.80"))).status).toBe(200);
  // The merchant API is not a public id route.
  expect((await stack().http.getPayment(m.testApiKey, p.id, from("203.0.113.80"))).status).toBe(200);
});
