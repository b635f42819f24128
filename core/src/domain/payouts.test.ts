// Chargebacks, bank accounts, payouts and the payout jobs on a real database, driven by the test's clock.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { nextPayoutAt, recoverPayouts, sweepPayouts } from "../jobs/sweep-payouts.ts";
import { presentApiKey } from "./api-keys.ts";
import { addBankAccount, listBankAccounts } from "./bank-accounts.ts";
import { OPERATOR, PUBLIC } from "./caller.ts";
import { openChargeback, winChargeback } from "./chargebacks.ts";
import { submitCard } from "./checkout-attempts.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { merchantBalances, postLedger } from "./ledger.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { advancePayout, requestPayout } from "./payouts.ts";
import { settleNow } from "./settlement.ts";
import { inTransaction, withoutTransaction } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let clock = new Date("2026-11-22T12:00:00.000Z");
let deps: CoreDeps;
const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 6, now: () => clock });
  deps = database.deps;
});
afterAll(() => database?.close());

const newMerchant = () => inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Tienda", currencies: [], methods: [] }));

let n = 0;
async function paid(merchant: CreatedMerchant, amount = "10000"): Promise<string> {
  const input = { amount, currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps, (tx) =>
    createPayment(deps, tx, presentApiKey(merchant.testApiKey), { idempotencyKey: `payouts-test-${n++}`, input }),
  );
  const id = created.value.id;
  await withoutTransaction(deps, (tx) =>
    submitCard(deps, tx, PUBLIC, { paymentId: id, card: { number: "4242424242424242", exp_month: 1, exp_year: 2031, cvc: "999", holder_name: "A" } }),
  );
  return id;
}
const settle = (id: string) => inTransaction(deps, (tx) => settleNow(deps, tx, id));
const balance = async (merchantId: string) => (await withoutTransaction(deps, (tx) => merchantBalances(tx, merchantId, "test", "GTQ")))[0]!;
const status = async (id: string) =>
  (await db(deps.orm.em.fork()).selectFrom("payments").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
const addAccount = (merchantId: string, accountNumber: string) =>
  inTransaction(deps, (tx) => addBankAccount(deps, tx, OPERATOR, { merchantId, mode: "test", currency: "GTQ", accountNumber }));
const codeOf = async (work: Promise<unknown>) =>
  work.then(
    () => "ok",
    (error: unknown) => (error instanceof DomainError ? `${error.code}: ${error.message}` : String(error)),
  );

describe("chargebacks", () => {
  test("opened while captured, settled while disputed, won: the payment comes back as far as settlement got", async () => {
    const merchant = await newMerchant();
    const id = await paid(merchant);
    const opened = await inTransaction(deps, (tx) => openChargeback(deps, tx, OPERATOR, { paymentId: id, reason: "fraudulent" }));
    expect(opened).toEqual({ id: opened.id, payment_id: id, amount: "10000", currency: "GTQ", status: "opened" });
    expect(await status(id)).toBe("chargeback");
    await settle(id);
    expect(await status(id)).toBe("chargeback");
    // Net 9450 released to available, less the 10000 disputed.
    expect(await balance(merchant.merchantId)).toMatchObject({ pending: 0n, available: 9_450n - 10_000n });
    const won = await inTransaction(deps, (tx) => winChargeback(deps, tx, OPERATOR, { paymentId: id }));
    expect(won).toEqual({ ...opened, status: "won" });
    expect(await status(id)).toBe("available_to_merchant");
    expect(await balance(merchant.merchantId)).toMatchObject({ available: 9_450n });
    expect(await codeOf(inTransaction(deps, (tx) => winChargeback(deps, tx, OPERATOR, { paymentId: id })))).toMatch(
      /^payment_not_payable: .*available_to_merchant/,
    );
  });
});

describe("payouts", () => {
  test("a payout takes only what is available, and nothing twice when two are requested at once", async () => {
    const merchant = await newMerchant();
    await addAccount(merchant.merchantId, "000111222333");
    for (let i = 0; i < 3; i++) await settle(await paid(merchant));
    const requests = await Promise.all(
      [0, 1, 2, 3].map(() => inTransaction(deps, (tx) => requestPayout(deps, tx, { merchantId: merchant.merchantId, mode: "test" }, { currency: "GTQ" }))),
    );
    const made = requests.filter((p) => p !== null);
    expect(made).toHaveLength(1);
    expect(made[0]!.amount).toBe(String(3 * 9_450));
    expect(await balance(merchant.merchantId)).toMatchObject({ available: 0n, in_transit: 28_350n });
    expect((await advancePayout(deps, deps.orm.em.fork(), made[0]!.id)).status).toBe("completed");
    expect(await balance(merchant.merchantId)).toMatchObject({ pending: 0n, available: 0n, in_transit: 0n });
  });

  test("what the merchant owes in pending is settled from available first", async () => {
    const merchant = await newMerchant();
    await addAccount(merchant.merchantId, "000111222333");
    await settle(await paid(merchant));
    // A debt of 1000 in pending (a refund larger than what was left there), written as the refund operation would.
    await inTransaction(deps, async (tx) => {
      await postLedger(tx, [
        {
          kind: "refund",
          merchantId: merchant.merchantId,
          mode: "test",
          currency: "GTQ",
          refundId: "refund_debt",
          at: clock,
          lines: [
            { account: "merchant_pending", amount: -1_000n },
            { account: "platform_cash", amount: 1_000n },
          ],
        },
      ]);
      return { value: undefined, events: [] };
    });
    const payout = await inTransaction(deps, (tx) => requestPayout(deps, tx, { merchantId: merchant.merchantId, mode: "test" }, { currency: "GTQ" }));
    expect(payout!.amount).toBe("8450");
    expect(await balance(merchant.merchantId)).toMatchObject({ pending: 0n, available: 0n, in_transit: 8_450n });
    expect((await advancePayout(deps, deps.orm.em.fork(), payout!.id)).status).toBe("completed");
  });

  test("a payout left half-way by a dead core is finished by the recovery job once its lease runs out", async () => {
    const merchant = await newMerchant();
    await addAccount(merchant.merchantId, "99990002");
    await settle(await paid(merchant));
    const payout = await inTransaction(deps, (tx) => requestPayout(deps, tx, { merchantId: merchant.merchantId, mode: "test" }, { currency: "GTQ" }));
    const policy = { batch: 10, leaseMs: deps.config.jobs.recoverPayouts.leaseMs };
    // Its requester's lease still holds: nobody else touches it.
    expect(await recoverPayouts(deps, policy)).toEqual({});
    tick(policy.leaseMs);
    expect(await recoverPayouts(deps, policy)).toEqual({ advanced: 1 });
    const row = await db(deps.orm.em.fork()).selectFrom("payouts").selectAll().where("id", "=", payout!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "failed", failure_reason: "account_closed", completed_at: null });
    // Back in available, once.
    expect(await balance(merchant.merchantId)).toMatchObject({ available: 9_450n, in_transit: 0n });
    expect((await advancePayout(deps, deps.orm.em.fork(), payout!.id)).status).toBe("failed");
    expect(await balance(merchant.merchantId)).toMatchObject({ available: 9_450n, in_transit: 0n });
  });

  test("the sweep pays out due accounts and moves them one schedule on", async () => {
    const merchant = await newMerchant();
    const account = await addAccount(merchant.merchantId, "000111222333");
    await settle(await paid(merchant));
    const schedule = deps.config.payoutScheduleMs!;
    const payouts = () => db(deps.orm.em.fork()).selectFrom("payouts").select(["amount", "status"]).where("merchant_id", "=", merchant.merchantId).execute();
    await sweepPayouts(deps, { intervalMs: 1000, batch: 100 });
    expect(await payouts()).toEqual([]);
    tick(schedule);
    // Batches of one (other tests' accounts are due too): the run claims again until a claim comes back short.
    await sweepPayouts(deps, { intervalMs: 1000, batch: 1 });
    expect(await payouts()).toEqual([{ amount: "9450", status: "completed" }]);
    expect(await balance(merchant.merchantId)).toMatchObject({ available: 0n, in_transit: 0n });
    const next = await db(deps.orm.em.fork()).selectFrom("bank_accounts").select("next_payout_at").where("id", "=", account.id).executeTakeFirstOrThrow();
    expect(next.next_payout_at!.getTime()).toBe(clock.getTime() + schedule);
  });

  test("next_payout_at keeps the account's rhythm after missed sweeps", () => {
    const due = new Date("2026-01-01T00:00:00Z");
    expect(nextPayoutAt(due, due, 1000).getTime()).toBe(due.getTime() + 1000);
    expect(nextPayoutAt(due, new Date(due.getTime() + 3500), 1000).getTime()).toBe(due.getTime() + 4000);
  });
});

describe("bank accounts", () => {
  test("a second account replaces the first; numbers are validated and never shown", async () => {
    const merchant = await newMerchant();
    expect(await codeOf(addAccount(merchant.merchantId, "12a4"))).toMatch(/^validation_error/);
    expect(await codeOf(addAccount(merchant.merchantId, "123"))).toMatch(/^validation_error/);
    expect(await codeOf(addAccount(merchant.merchantId, "1".repeat(35)))).toMatch(/^validation_error/);
    expect(await codeOf(inTransaction(deps, (tx) => requestPayout(deps, tx, { merchantId: merchant.merchantId, mode: "test" }, { currency: "GTQ" })))).toBe(
      "validation_error: no bank account for GTQ",
    );
    const first = await addAccount(merchant.merchantId, "5555666677778888");
    tick(1);
    const second = await addAccount(merchant.merchantId, "111122223333");
    expect(Object.keys(second)).toEqual(["id", "currency", "bank_name", "holder_name", "masked", "active", "created_at"]);
    expect(second.masked).toBe("****3333");
    const listed = await withoutTransaction(deps, (tx) => listBankAccounts(deps, tx, OPERATOR, { merchantId: merchant.merchantId, mode: "test" }));
    expect(listed.map((a) => [a.id, a.active])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect(JSON.stringify(listed)).not.toContain("111122223333");
  });
});
