// LINK_RATE_LIMIT across instances: two facades and two cores on one database, hammered
// alternately from one client IP (TRUST_PROXY + X-Forwarded-For). The limit counts across all of
// them, another IP is unaffected, Retry-After is honest (the seconds until the window ends).

import { expect, test } from "vitest";
import { newIdemKey, type HttpClient } from "./support/http.ts";
import { expectError, useStack } from "./support/expect.ts";

// An hour, so the few requests of a test almost never straddle two windows.
const WINDOW_S = 3600;
const stack = useStack({ env: { TRUST_PROXY: "true", LINK_RATE_LIMIT: `5/ip,8/link,${WINDOW_S}s` } });

async function newLink(): Promise<string> {
  const m = await stack().admin.createMerchant({ name: "Tienda Límite" });
  const res = await stack().http.post("/v1/payment_links", { key: m.testApiKey, idem: newIdemKey(), body: { title: "Pan", currency: "GTQ", fixed_amount_minor: "1500" } });
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

const pay = (http: HttpClient, linkId: string, ip: string) =>
  http.post(`/v1/payment_links/${linkId}/pay`, { idem: newIdemKey(), body: { method_type: "card" }, headers: { "x-forwarded-for": `${ip}, 192.0.2.1` } });

test("per IP: counted across two facades and two cores; another IP unaffected; honest Retry-After", async () => {
  const second = await stack().addInstance();
  const facades = [stack().http, second];
  const linkId = await newLink();
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await pay(facades[i % 2]!, linkId, "203.0.113.7")).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201]);
  for (const facade of facades) {
    const before = Date.now();
    const limited = await pay(facade, linkId, "203.0.113.7");
    expectError(limited, 429, "rate_limited");
    const retryAfter = Number(limited.header("retry-after"));
    // The window is fixed: the next one starts at the next multiple of WINDOW_S since the epoch.
    const windowEnds = Math.floor(before / 1000 / WINDOW_S) * WINDOW_S + WINDOW_S;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    expect(Math.abs(before / 1000 + retryAfter - windowEnds)).toBeLessThanOrEqual(2);
  }
  expect((await pay(second, linkId, "198.51.100.9")).status).toBe(201);
  const payments = await stack().sql<{ n: string }>("select count(*) as n from payments where link_id = $1", [linkId]);
  expect(Number(payments[0]!.n)).toBe(6);
});

test("per link: counted across instances whatever the IP; another link unaffected", async () => {
  const second = await stack().addInstance();
  const facades = [stack().http, second];
  const linkId = await newLink();
  const statuses: number[] = [];
  for (let i = 0; i < 9; i++) statuses.push((await pay(facades[i % 2]!, linkId, `198.18.0.${i + 1}`)).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 429]);
  const other = await newLink();
  expect((await pay(second, other, "198.18.1.1")).status).toBe(201);
});
