// LINK_RATE_LIMIT across instances: two facades and two cores on one database, hammered
// alternately from one client IP. The test client plays the load balancer in front of the facade
// (TRUST_PROXY names loopback): it sends X-Forwarded-For as a balancer forwards it, whatever the
// client wrote first and the address the balancer saw appended last. The limit counts across all
// instances, another IP is unaffected, Retry-After is honest (the seconds until the window ends);
// junk and refused requests count against their own address only, and an IPv6 client counts by /64.

import { randomInt } from "node:crypto";
import { expect, test } from "vitest";
import { coreMetricSamples } from "./support/core-metrics.ts";
import { newIdemKey, type HttpClient } from "./support/http.ts";
import { expectError, useStack } from "./support/expect.ts";

// An hour, so the few requests of a test almost never straddle two windows.
const WINDOW_S = 3600;
const stack = useStack({ env: { TRUST_PROXY: "127.0.0.1,::1", LINK_RATE_LIMIT: `5/ip,8/link,${WINDOW_S}s` } });

async function newLink(fields: Record<string, unknown> = { fixed_amount_minor: "1500" }): Promise<string> {
  const m = await stack().admin.createMerchant({ name: "Tienda Límite" });
  const res = await stack().http.post("/v1/payment_links", { key: m.testApiKey, idem: newIdemKey(), body: { title: "Pan", currency: "GTQ", ...fields } });
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

/** Whatever the client itself wrote: a fresh address on every request unless given. */
const spoofed = () => `192.0.2.${randomInt(1, 255)}`;

/** A pay as the balancer forwards it: the client's own X-Forwarded-For, then the address the balancer saw. */
const pay = (http: HttpClient, linkId: string, ip: string, opts: { firstHop?: string; body?: unknown } = {}) =>
  http.post(`/v1/payment_links/${linkId}/pay`, {
    idem: newIdemKey(),
    body: opts.body ?? { method_type: "card" },
    headers: { "x-forwarded-for": `${opts.firstHop ?? spoofed()}, ${ip}` },
  });

const linkCounter = async (linkId: string) =>
  Number((await stack().sql<{ n: string }>("select coalesce(sum(attempts), 0) as n from link_rate_limits where bucket = $1", [`link:${linkId}`]))[0]!.n);

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
    const after = Date.now();
    expectError(limited, 429, "rate_limited");
    const retryAfter = Number(limited.header("retry-after"));
    // The window is fixed: the next one starts at the next multiple of WINDOW_S since the epoch.
    const windowEnds = Math.floor(before / 1000 / WINDOW_S) * WINDOW_S + WINDOW_S;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    // The seconds, rounded up, from the moment the core counted the request (between before and
    // after, however long the request took) to the window's end.
    expect(retryAfter).toBeGreaterThanOrEqual(windowEnds - after / 1000);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(windowEnds - before / 1000));
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

test("80 pays at once on two links through two cores: counted in batches, exactly the limit admitted per link, no batch failed", async () => {
  const second = await stack().addInstance();
  const facades = [stack().http, second];
  const links = [await newLink(), await newLink()];
  const metrics = () => coreMetricSamples(stack().coreHttpUrls(), stack().internalToken);
  /** Batches of more than one attempt run so far, over both cores. */
  const batchesOfSeveral = (samples: Map<string, number>) =>
    [...samples].reduce((n, [sample, count]) => n + (Number(/^paytami_core_link_admit_batches\{size="(\d+)"\}$/.exec(sample)?.[1] ?? 0) > 1 ? count : 0), 0);
  const before = await metrics();
  // Every pay from its own address, so only the links' counter rows are shared by the two cores' batches.
  const statuses = await Promise.all(
    Array.from({ length: 80 }, async (_, i) => ({
      link: i % 2,
      status: (await pay(facades[Math.floor(i / 2) % 2]!, links[i % 2]!, `198.19.0.${i + 1}`)).status,
    })),
  );
  for (const link of [0, 1]) {
    const mine = statuses.filter((s) => s.link === link).map((s) => s.status);
    expect(mine.filter((s) => s === 201)).toHaveLength(8);
    expect(mine.filter((s) => s === 429)).toHaveLength(32);
    // Every attempt was counted on its link, admitted or not (none was refused by its client's limit).
    expect(await linkCounter(links[link]!)).toBe(40);
  }
  const payments = await stack().sql<{ n: string }>("select count(*) as n from payments where link_id = any($1)", [links]);
  expect(Number(payments[0]!.n)).toBe(16);
  // Batches of several were run, and none failed into one statement per attempt (a deadlock between the cores would).
  const after = await metrics();
  expect(batchesOfSeveral(after)).toBeGreaterThan(batchesOfSeveral(before));
  expect(before.get("paytami_core_link_admit_batch_failures")).toBeDefined();
  expect(after.get("paytami_core_link_admit_batch_failures")).toBe(before.get("paytami_core_link_admit_batch_failures"));
});

test("behind a proxy that appends the client address, rotating the first X-Forwarded-For hop does not escape the limit", async () => {
  const linkId = await newLink();
  const statuses: number[] = [];
  // A new first hop every time, as a card tester would write it; the balancer appends the real address.
  for (let i = 0; i < 7; i++) statuses.push((await pay(stack().http, linkId, "203.0.113.10", { firstHop: `10.9.${i}.1` })).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
  // The same first hop from another real client is another client.
  expect((await pay(stack().http, linkId, "198.51.100.10", { firstHop: "10.9.0.1" })).status).toBe(201);
  // Several hops written by the client change nothing either.
  expect((await pay(stack().http, linkId, "203.0.113.10", { firstHop: "10.9.9.1, 10.9.9.2, 198.51.100.10" })).status).toBe(429);
});

test("41 junk requests from one client do not stop another client's valid pay", async () => {
  const linkId = await newLink();
  const junk: unknown[] = ["{not json", { method_type: "card", amount: "100" }, { method_type: "card", color: "red" }, {}, { method_type: 7 }, []];
  const statuses: number[] = [];
  for (let i = 0; i < 41; i++) {
    const body = junk[i % junk.length];
    const res = await stack().http.post(`/v1/payment_links/${linkId}/pay`, {
      idem: newIdemKey(),
      body,
      headers: { "x-forwarded-for": `${spoofed()}, 203.0.113.20`, "content-type": "application/json" },
    });
    statuses.push(res.status);
  }
  // Junk counts against the client that sent it: five answers, then it is limited.
  expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
  expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
  expect((await pay(stack().http, linkId, "198.51.100.20")).status).toBe(201);
  expect(await linkCounter(linkId)).toBe(1);
});

test("requests refused by their IP's limit do not count against the link", async () => {
  const linkId = await newLink();
  const statuses: number[] = [];
  for (let i = 0; i < 25; i++) statuses.push((await pay(stack().http, linkId, "203.0.113.30")).status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  expect(await linkCounter(linkId)).toBe(5);
  // Three more honest customers fit in the link's 8; the link's own limit still holds after them.
  for (const ip of ["198.51.100.31", "198.51.100.32", "198.51.100.33"]) expect((await pay(stack().http, linkId, ip)).status).toBe(201);
  const refused = await pay(stack().http, linkId, "198.51.100.34");
  expectError(refused, 429, "rate_limited");
  expect(refused.json.error.message).toContain("link");
  // Over the link's limit, junk is refused by the limit first (the pay check order), still without counting.
  expectError(await pay(stack().http, linkId, "198.51.100.35", { body: { method_type: "card", amount: "1" } }), 429, "rate_limited");
  expect(await linkCounter(linkId)).toBe(9);
});

test("IPv6 clients in one /64 share a counter; IPv4-mapped addresses count as IPv4", async () => {
  const linkId = await newLink();
  const statuses: number[] = [];
  for (let i = 1; i <= 5; i++) statuses.push((await pay(stack().http, linkId, `2001:db8:a:b::${i.toString(16)}`)).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201]);
  expectError(await pay(stack().http, linkId, "2001:DB8:A:B:FFFF:FFFF:FFFF:FFFF"), 429, "rate_limited");
  expect((await pay(stack().http, linkId, "2001:db8:a:c::1")).status).toBe(201);

  const other = await newLink();
  for (let i = 0; i < 5; i++) expect((await pay(stack().http, other, i % 2 ? "::ffff:203.0.113.40" : "203.0.113.40")).status).toBe(201);
  expectError(await pay(stack().http, other, "::ffff:cb00:7128"), 429, "rate_limited");
});
