// Two cores run the payout schedule over the same merchants at once: every due account is swept
// once per schedule, the payouts add up to exactly the available balance that was there, nothing is
// paid out twice, and the balances end at zero available and zero in transit.
import { beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { createOk, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";

const MERCHANTS = 12;
const stack = useStack({
  env: {
    PAYOUT_SCHEDULE: "3s",
    SWEEP_PAYOUTS_INTERVAL: "50ms",
    SWEEP_PAYOUTS_BATCH: "2",
    RECOVER_PAYOUTS_INTERVAL: "200ms",
  },
});
const TEST = modeCodec.fromWire("test");
let merchants: Merchant[];

beforeAll(async () => {
  const s = stack();
  await s.addInstance();
  merchants = await Promise.all(Array.from({ length: MERCHANTS }, (_, i) => s.admin.createMerchant({ name: `Tienda ${i}` })));
});

async function settledPayments(m: Merchant, amounts: string[]): Promise<void> {
  for (const amount of amounts) {
    const id = (await createOk(stack().http, m.testApiKey, { amount })).id as string;
    await stack().admin.simulate(id, "succeed");
    await stack().admin.simulate(id, "settle");
  }
}

const available = async (merchantId: string) =>
  Number(
    (
      await stack().sql<{ total: string }>(
        "select coalesce(sum(amount), 0)::text as total from ledger_lines where merchant_id = $1 and mode = 'test' and currency = 'GTQ' and account = 'merchant_available'",
        [merchantId],
      )
    )[0]!.total,
  );

const balances = async (merchantId: string) =>
  stack().sql<{ account: string; total: string }>(
    "select account, sum(amount)::text as total from ledger_lines where merchant_id = $1 and account like 'merchant_%' group by account order by account",
    [merchantId],
  );

const payoutsOf = async (merchantId: string) =>
  stack().sql<{ amount: string; status: string }>("select amount::text, status from payouts where merchant_id = $1 order by requested_at", [merchantId]);

const finishedPayouts = async () =>
  Number((await stack().sql<{ n: string }>("select count(*)::text as n from payouts where status in ('completed', 'failed')"))[0]!.n);

describe("the payout schedule on two cores", () => {
  test(`${MERCHANTS} merchants swept by two cores: each balance paid out once per sweep, never twice`, { timeout: 120_000 }, async () => {
    await Promise.all(merchants.map((m) => settledPayments(m, ["10000", "25000"])));
    const before = await Promise.all(merchants.map((m) => available(m.merchantId)));
    expect(before.every((a) => a === 9_450 + 23_925)).toBe(true);
    // Every account becomes due at about the same moment, one schedule from now.
    await Promise.all(
      merchants.map((m) => stack().core.payouts.addBankAccount({ merchant_id: m.merchantId, mode: TEST, currency: "GTQ", account_number: "12345678" })),
    );

    await expect.poll(finishedPayouts, { timeout: 60_000, interval: 100, message: "first sweep of every account" }).toBe(MERCHANTS);
    for (const [i, m] of merchants.entries()) {
      expect(await payoutsOf(m.merchantId)).toEqual([{ amount: String(before[i]), status: "completed" }]);
      expect(await balances(m.merchantId)).toEqual([
        { account: "merchant_available", total: "0" },
        { account: "merchant_in_transit", total: "0" },
        { account: "merchant_pending", total: "0" },
      ]);
    }

    // More money arrives; the next sweep pays out that and only that.
    await Promise.all(merchants.map((m) => settledPayments(m, ["10000"])));
    await expect.poll(finishedPayouts, { timeout: 60_000, interval: 100, message: "second sweep of every account" }).toBe(2 * MERCHANTS);
    for (const m of merchants) {
      expect(await payoutsOf(m.merchantId)).toEqual([
        { amount: "33375", status: "completed" },
        { amount: "9450", status: "completed" },
      ]);
      expect(await available(m.merchantId)).toBe(0);
    }
    // Sweeps keep running and find nothing more to pay.
    const accounts = await stack().sql<{ next_payout_at: Date }>("select next_payout_at from bank_accounts");
    const lastDue = Math.max(...accounts.map((a) => new Date(a.next_payout_at).getTime()));
    await expect.poll(() => Date.now() > lastDue + 500, { timeout: 10_000, interval: 100 }).toBe(true);
    expect(await finishedPayouts()).toBe(2 * MERCHANTS);
    const moved = await stack().sql<{ kind: string; n: string }>(
      "select kind, count(*)::text as n from ledger_transactions where kind like 'payout%' group by kind order by kind",
    );
    expect(moved).toEqual([
      { kind: "payout_completed", n: String(2 * MERCHANTS) },
      { kind: "payout_requested", n: String(2 * MERCHANTS) },
    ]);
  });
});
