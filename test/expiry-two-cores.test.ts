// Two cores on one database share the expiry job without doing any payment
// twice (DESIGN §1: "Background jobs claim due rows in batches with FOR UPDATE
// SKIP LOCKED through one shared mechanism, so any number of cores share the
// work without doing it twice"). Both cores poll every 100 ms in batches of 20,
// so they are constantly claiming the same due rows at the same moments; each
// core counts what it took in paytami_core_job_items_total{job_name="expire_payments"}.

import { beforeAll, describe, expect, test } from "vitest";
import type { HttpClient } from "./support/http.ts";
import type { Merchant } from "./support/stack.ts";
import { eventually } from "./support/eventually.ts";
import { createOk, useStack } from "./support/expect.ts";

const PAYMENTS = 300;
const stack = useStack({ env: { PAYMENT_TTL: "15s", EXPIRE_PAYMENTS_INTERVAL: "100ms", EXPIRE_PAYMENTS_BATCH: "20" } });
let m: Merchant;
let facades: HttpClient[];

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Tienda Dos Núcleos" });
  facades = [s.http, await s.addInstance()];
});

/** outcome → count of the expiry job on one core, from its /metrics. */
async function expiryTally(coreHttpUrl: string): Promise<Record<string, number>> {
  const res = await fetch(`${coreHttpUrl}/metrics`, { headers: { authorization: `Bearer ${stack().internalToken}` } });
  expect(res.status).toBe(200);
  const tally: Record<string, number> = {};
  for (const line of (await res.text()).split("\n")) {
    if (!line.startsWith("paytami_core_job_items_total{") || !line.includes('job_name="expire_payments"')) continue;
    const outcome = /outcome="([^"]+)"/.exec(line)?.[1];
    tally[outcome!] = Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return tally;
}

const total = (tally: Record<string, number>) => Object.values(tally).reduce((a, b) => a + b, 0);

describe("expiry with two cores on one database", () => {
  test(`${PAYMENTS} due payments: each expired exactly once, the work shared by both cores`, { timeout: 180_000 }, async () => {
    const s = stack();
    const cores = s.coreHttpUrls();
    expect(cores).toHaveLength(2);

    const ids: string[] = [];
    for (let i = 0; i < PAYMENTS; i += 20) {
      const chunk = await Promise.all(Array.from({ length: 20 }, (_, j) => createOk(facades[(i + j) % 2]!, m.testApiKey)));
      ids.push(...chunk.map((p) => p.id as string));
    }

    await expect
      .poll(async () => (await s.sql<{ n: string }>("select count(*)::text as n from payments where id = any($1) and status = 'expired'", [ids]))[0]!.n, {
        timeout: 120_000,
        interval: 500,
        message: "every payment to expire",
      })
      .toBe(String(PAYMENTS));

    // Each payment expired once, after its deadline.
    const rows = await s.sql<{ status: string; late: boolean }>("select status, expired_at >= expires_at as late from payments where id = any($1)", [ids]);
    expect(rows).toHaveLength(PAYMENTS);
    expect(rows.every((r) => r.status === "expired" && r.late)).toBe(true);

    // A core counts a batch just after committing it, so when the last row reads expired its count may
    // still be on the way: wait until the counters account for every payment. No claim finds an
    // expired payment, so nothing is counted after that; a payment taken twice shows below as more
    // than PAYMENTS.
    const tallies = await eventually(
      async () => {
        const now = await Promise.all(cores.map(expiryTally));
        return now.reduce((sum, t) => sum + total(t), 0) >= PAYMENTS ? now : undefined;
      },
      60_000,
      "the cores' expiry counters to account for every payment",
    );
    // Every payment was taken by exactly one core: the items both cores handled add up to the payments, all of them "expired".
    expect(
      tallies.reduce((sum, t) => sum + total(t), 0),
      JSON.stringify(tallies),
    ).toBe(PAYMENTS);
    expect(
      tallies.reduce((sum, t) => sum + (t.expired ?? 0), 0),
      JSON.stringify(tallies),
    ).toBe(PAYMENTS);
    // And the work was shared, not done by one core while the other waited.
    for (const t of tallies) expect(t.expired ?? 0, JSON.stringify(tallies)).toBeGreaterThan(0);
  });
});
