// Two cores run the sandbox jobs (bank-transfer confirmation, then the three settlement steps) over
// one database, and one of them is killed with SIGKILL mid-run: every payment still reaches
// available_to_merchant, each step stamped once and in order, and each payment.succeeded written once.
import { beforeAll, describe, expect, test } from "vitest";
import { createOk, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";

const PAYMENTS = 300;
const stack = useStack({
  allow503: true,
  env: {
    BANK_TRANSFER_CONFIRM_AFTER: "2s",
    SETTLEMENT_DELAYS: "1s,1s,1s",
    CONFIRM_BANK_TRANSFERS_INTERVAL: "50ms",
    CONFIRM_BANK_TRANSFERS_BATCH: "10",
    SETTLE_PAYMENTS_INTERVAL: "50ms",
    SETTLE_PAYMENTS_BATCH: "10",
  },
});
let m: Merchant;

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Tienda Dos Núcleos" });
  await s.addInstance();
});

const countWhere = async (where: string, ids: string[]) =>
  Number((await stack().sql<{ n: string }>(`select count(*)::text as n from payments where id = any($1) and ${where}`, [ids]))[0]!.n);

describe("sandbox jobs on two cores, one killed mid-run", () => {
  test(`${PAYMENTS} bank transfers confirmed and settled, each step exactly once`, { timeout: 240_000 }, async () => {
    const s = stack();
    const ids: string[] = [];
    for (let i = 0; i < PAYMENTS; i += 25) {
      const chunk = await Promise.all(Array.from({ length: 25 }, () => createOk(s.http, m.testApiKey, { method_type: "bank_transfer" })));
      ids.push(...chunk.map((p) => p.id as string));
    }
    for (let i = 0; i < PAYMENTS; i += 25) {
      await Promise.all(ids.slice(i, i + 25).map((id) => s.core.checkout.startBankTransfer({ payment_id: id })));
    }
    // Wait until the jobs are well under way, then kill the first core without warning.
    await expect.poll(() => countWhere("status <> 'processing'", ids), { timeout: 60_000, interval: 50 }).toBeGreaterThan(PAYMENTS / 5);
    process.kill(s.pids().core!, "SIGKILL");
    expect(await countWhere("status = 'available_to_merchant'", ids)).toBeLessThan(PAYMENTS);

    await expect
      .poll(() => countWhere("status = 'available_to_merchant'", ids), { timeout: 180_000, interval: 500, message: "every payment settled" })
      .toBe(PAYMENTS);
    // Each step after its delay from the one before, none skipped (a step done twice would have moved its stamp past the next one's).
    expect(
      await countWhere(
        `processing_at + interval '2 s' <= captured_at
      and captured_at + interval '1 s' <= pending_settlement_at
      and pending_settlement_at + interval '1 s' <= settled_to_paytami_at
      and settled_to_paytami_at + interval '1 s' <= available_to_merchant_at`,
        ids,
      ),
    ).toBe(PAYMENTS);
    const events = await s.sql<{ id: string; n: string }>(
      "select envelope->'data'->>'id' as id, count(*)::text as n from outbox_events where type = 'payment.succeeded' and envelope->'data'->>'id' = any($1) group by 1",
      [ids],
    );
    expect(events).toHaveLength(PAYMENTS);
    expect(events.every((e) => e.n === "1")).toBe(true);
    // No other event for these payments.
    const others = await s.sql<{ n: string }>(
      "select count(*)::text as n from outbox_events where type <> 'payment.succeeded' and envelope->'data'->>'id' = any($1)",
      [ids],
    );
    expect(others[0]!.n).toBe("0");
  });
});
