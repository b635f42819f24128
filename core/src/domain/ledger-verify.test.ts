// verifyLedger against a real database: clean after captures and settlement, and each invariant
// broken on its own by direct SQL (triggers off for that transaction only: session_replication_role
// = replica), inside a transaction that is rolled back, so every test starts from the clean ledger.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "./api-keys.ts";
import { OPERATOR } from "./caller.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { verifyLedger, type LedgerVerification, type LedgerViolation } from "./ledger-verify.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { transitionPayment } from "./payment-transitions.ts";
import { settleNow } from "./settlement.ts";
import { SIMULATION_STEPS } from "./simulate-payment.ts";
import { inTransaction, withoutTransaction, type Tx } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;
let merchant: CreatedMerchant;
/** A payment captured only; one captured and settled through release; one settled in USD. */
let captured: string;
let released: string;
let usd: string;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => new Date() });
  deps = database.deps;
  merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Libro Mayor", currencies: [], methods: [] }));
  captured = await capturedPayment("15050", "GTQ");
  released = await capturedPayment("20000", "GTQ");
  usd = await capturedPayment("5000", "USD");
  for (const id of [released, usd]) await inTransaction(deps, (tx) => settleNow(deps, tx, id));
});

afterAll(() => database?.close());

let n = 0;
async function capturedPayment(amount: string, currency: string): Promise<string> {
  const input = { amount, currency, method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps, (tx) =>
    createPayment(deps, tx, presentApiKey(merchant.testApiKey), { idempotencyKey: `ledger-verify-${n++}-${Math.random()}`, input }),
  );
  const id = created.value.id;
  await inTransaction(deps, (tx) => transitionPayment(deps, tx, id, SIMULATION_STEPS.succeed));
  return id;
}

class Rollback extends Error {}

/** Runs `corrupt` with triggers off, verifies inside the same transaction, and rolls everything back. */
async function verifyAfter(corrupt: (tx: Tx) => Promise<unknown>): Promise<LedgerVerification> {
  let result: LedgerVerification | undefined;
  await deps.orm.em
    .fork()
    .transactional(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(db(tx));
      await corrupt(tx);
      result = await verifyLedger(deps, tx, OPERATOR);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result!;
}

const exec = (tx: Tx, query: ReturnType<typeof sql>) => query.execute(db(tx));
const violationsOf = (r: LedgerVerification): LedgerViolation[] => (r.ok ? [] : r.violations);
const invariants = (r: LedgerVerification) => [...new Set(violationsOf(r).map((v) => v.invariant))].sort();

async function transactionOf(paymentId: string, kind: string): Promise<string> {
  const row = await db(deps.orm.em.fork())
    .selectFrom("ledger_transactions")
    .select("id")
    .where("payment_id", "=", paymentId)
    .where("kind", "=", kind)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

describe("verifyLedger", () => {
  test("a ledger of captures and settlements is clean, and says what it checked", async () => {
    const result = await withoutTransaction(deps, (tx) => verifyLedger(deps, tx, OPERATOR));
    expect(result).toEqual({
      ok: true,
      // 3 captures (3 lines each), 2 × settlement_batch, funds_received, release (2 lines each).
      checked: { transactions: 9, lines: 21, payments: 3, captured_payments: 3, refunds: 0, chargebacks: 0, payouts: 0, balances: 2 },
    });
  });

  test("the append-only trigger refuses UPDATE and DELETE of lines and transactions", async () => {
    const q = db(deps.orm.em.fork());
    await expect(sql`update ledger_lines set amount = 1 where payment_id = ${captured}`.execute(q)).rejects.toThrow(/append-only/);
    await expect(q.deleteFrom("ledger_lines").where("payment_id", "=", captured).execute()).rejects.toThrow(/append-only/);
    await expect(q.deleteFrom("ledger_transactions").where("payment_id", "=", captured).execute()).rejects.toThrow(/append-only/);
  });

  test("a line changed by one: its transaction does not sum to zero, and the merchant's total is off by one", async () => {
    const capture = await transactionOf(captured, "capture");
    const result = await verifyAfter((tx) =>
      exec(tx, sql`update ledger_lines set amount = amount + 1 where transaction_id = ${capture} and account = 'merchant_pending'`),
    );
    expect(invariants(result)).toEqual(["merchant_total", "transaction_balanced"]);
    expect(violationsOf(result).find((v) => v.invariant === "transaction_balanced")).toEqual({
      invariant: "transaction_balanced",
      transaction_id: capture,
      payment_id: captured,
      currency: "GTQ",
      expected: "0",
      actual: "1",
      message: `ledger transaction ${capture}: its GTQ lines sum to 1, not 0`,
    });
    const total = violationsOf(result).find((v) => v.invariant === "merchant_total")!;
    expect(total).toMatchObject({ merchant_id: merchant.merchantId, mode: "test", currency: "GTQ" });
    expect(BigInt(total.actual) - BigInt(total.expected)).toBe(1n);
  });

  test("an extra unbalanced line on a settlement transaction is named", async () => {
    const batch = await transactionOf(usd, "settlement_batch");
    const result = await verifyAfter((tx) =>
      exec(
        tx,
        sql`insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, payment_id, amount)
                   values (${batch}, 'platform_cash', ${merchant.merchantId}, 'test', 'USD', ${usd}, -25)`,
      ),
    );
    expect(violationsOf(result)).toEqual([
      expect.objectContaining({ invariant: "transaction_balanced", transaction_id: batch, currency: "USD", actual: "-25" }),
    ]);
  });

  // The amounts are fingerprinted exactly, not modulo a prime: a line off by 2^31 − 1 on a platform
  // account (which no balance shows) is still an unbalanced transaction.
  test("a platform line off by 2^31 − 1 is named", async () => {
    const batch = await transactionOf(usd, "settlement_batch");
    const result = await verifyAfter((tx) =>
      exec(tx, sql`update ledger_lines set amount = amount + 2147483647 where transaction_id = ${batch} and account = 'processor_in_flight'`),
    );
    expect(violationsOf(result)).toEqual([
      expect.objectContaining({ invariant: "transaction_balanced", transaction_id: batch, currency: "USD", actual: "2147483647" }),
    ]);
  });

  // An amount of 2^32 or more can overflow its fingerprint term: the exact queries decide instead.
  test("amounts too large for the fingerprint: balanced ones pass, an unbalanced one is named", async () => {
    const batch = await transactionOf(usd, "settlement_batch");
    const huge = (amount: bigint) => (tx: Tx) =>
      exec(
        tx,
        sql`
      insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, payment_id, amount)
      values (${batch}, 'processor_in_flight', ${merchant.merchantId}, 'test', 'USD', ${usd}, ${(2n ** 62n).toString()}),
             (${batch}, 'processor_receivable', ${merchant.merchantId}, 'test', 'USD', ${usd}, ${(-(2n ** 62n) + amount).toString()})`,
      );
    expect(await verifyAfter(huge(0n))).toMatchObject({ ok: true, checked: { lines: 23 } });
    const result = await verifyAfter(huge(7n));
    expect(violationsOf(result)).toEqual([expect.objectContaining({ invariant: "transaction_balanced", transaction_id: batch, currency: "USD", actual: "7" })]);
  });

  test("lines balanced overall but in two currencies: each currency is reported", async () => {
    const batch = await transactionOf(released, "settlement_batch");
    const result = await verifyAfter((tx) =>
      exec(tx, sql`update ledger_lines set currency = 'USD' where transaction_id = ${batch} and account = 'processor_in_flight'`),
    );
    const unbalanced = violationsOf(result).filter((v) => v.invariant === "transaction_balanced");
    expect(unbalanced.map((v) => [v.transaction_id, v.currency, v.actual]).sort()).toEqual([
      [batch, "GTQ", "20000"],
      [batch, "USD", "-20000"],
    ]);
  });

  // GTQ and EUR hash (hashtext) to values of the same sign, USD to the other: each pair gets weights of its own.
  test.each(["EUR", "USD"])("a line moved from GTQ to %s in a balanced transaction: both currencies are reported", async (currency) => {
    const capture = await transactionOf(captured, "capture");
    const result = await verifyAfter((tx) =>
      exec(tx, sql`update ledger_lines set currency = ${currency} where transaction_id = ${capture} and account = 'merchant_pending'`),
    );
    const unbalanced = violationsOf(result).filter((v) => v.invariant === "transaction_balanced");
    expect(unbalanced.map((v) => v.currency).sort()).toEqual([currency, "GTQ"].sort());
  });

  test("a captured payment whose capture transaction was deleted (with its lines)", async () => {
    const capture = await transactionOf(captured, "capture");
    const result = await verifyAfter(async (tx) => {
      await exec(tx, sql`delete from ledger_lines where transaction_id = ${capture}`);
      await exec(tx, sql`delete from ledger_transactions where id = ${capture}`);
    });
    expect(violationsOf(result)).toContainEqual(
      expect.objectContaining({ invariant: "payment_has_movement", payment_id: captured, expected: "a capture transaction", actual: "none" }),
    );
    expect(invariants(result)).toEqual(["merchant_total", "payment_has_movement"]);
  });

  test("a settlement stamp without its transaction, and a settlement transaction without its stamp", async () => {
    const batch = await transactionOf(released, "settlement_batch");
    const result = await verifyAfter(async (tx) => {
      await exec(tx, sql`update payments set pending_settlement_at = now() where id = ${captured}`);
      await exec(tx, sql`update payments set pending_settlement_at = null where id = ${released}`);
    });
    expect(violationsOf(result)).toEqual([
      expect.objectContaining({ invariant: "payment_has_movement", payment_id: captured, expected: "a settlement_batch transaction" }),
      expect.objectContaining({ invariant: "movement_has_payment", transaction_id: batch, payment_id: released }),
    ]);
  });

  test("a refund row without its ledger transaction", async () => {
    const result = await verifyAfter(async (tx) => {
      await exec(
        tx,
        sql`insert into refunds (id, merchant_id, mode, payment_id, amount, currency, reason, status, created_at, updated_at)
                         values ('refund_000000000000000000000001', ${merchant.merchantId}, 'test', ${released}, 500, 'GTQ', 'other', 'succeeded', now(), now())`,
      );
      await exec(tx, sql`update payments set status = 'partially_refunded' where id = ${released}`);
    });
    expect(violationsOf(result)).toContainEqual(
      expect.objectContaining({
        invariant: "refund_has_movement",
        refund_id: "refund_000000000000000000000001",
        payment_id: released,
        actual: "no transaction",
      }),
    );
    // The balance still holds the 500: what the tables say is 500 less.
    expect(violationsOf(result)).toContainEqual(expect.objectContaining({ invariant: "merchant_total", merchant_id: merchant.merchantId, currency: "GTQ" }));
    // Counted by its rows, the payment has 19 500 left; counted by the ledger, 20 000.
    expect(violationsOf(result)).toContainEqual(
      expect.objectContaining({ invariant: "refundable_remainder", payment_id: released, expected: "19500", actual: "20000" }),
    );
    expect(invariants(result)).toEqual(["merchant_total", "refund_has_movement", "refundable_remainder"]);
  });

  test("a refund whose transaction took a different amount than the refund", async () => {
    const result = await verifyAfter(async (tx) => {
      await refundWithLedger(tx, "refund_000000000000000000000002", released, 700n, 600n);
      await exec(tx, sql`update payments set status = 'partially_refunded' where id = ${released}`);
    });
    expect(violationsOf(result)).toContainEqual(
      expect.objectContaining({ invariant: "refund_has_movement", refund_id: "refund_000000000000000000000002", expected: "700", actual: "600" }),
    );
  });

  test("refunds above the payment's amount, and a status that disagrees with what is left", async () => {
    const result = await verifyAfter(async (tx) => {
      await refundWithLedger(tx, "refund_000000000000000000000003", released, 20000n, 20000n);
      await refundWithLedger(tx, "refund_000000000000000000000004", released, 1n, 1n);
      await exec(tx, sql`update payments set status = 'refunded' where id = ${released}`);
      await refundWithLedger(tx, "refund_000000000000000000000005", usd, 100n, 100n);
      await exec(tx, sql`update payments set status = 'refunded' where id = ${usd}`);
    });
    const remainders = violationsOf(result).filter((v) => v.invariant === "refundable_remainder");
    expect(remainders).toHaveLength(2);
    expect(remainders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ payment_id: released, expected: "refunds <= amount", actual: "refunds 20001 > amount 20000" }),
        expect.objectContaining({ payment_id: usd, expected: "partially_refunded", actual: "refunded" }),
      ]),
    );
  });

  test("a payment marked refunded with no refund", async () => {
    const result = await verifyAfter((tx) => exec(tx, sql`update payments set status = 'refunded' where id = ${captured}`));
    expect(violationsOf(result)).toEqual([
      expect.objectContaining({ invariant: "refundable_remainder", payment_id: captured, expected: "a refund", actual: "none" }),
    ]);
  });

  // The remainder pass joins only payments whose status says refunded: a refund of any other
  // payment, or of none, is found by the refund groups it could not join.
  test("a refund of a payment whose status does not say refunded, and a refund of no payment", async () => {
    const result = await verifyAfter(async (tx) => {
      await refundWithLedger(tx, "refund_000000000000000000000006", usd, 100n, 100n);
      await refundWithLedger(tx, "refund_000000000000000000000007", "pay_000000000000000000000000", 50n, 50n);
    });
    const remainders = violationsOf(result).filter((v) => v.invariant === "refundable_remainder");
    expect(remainders).toEqual([
      expect.objectContaining({ payment_id: "pay_000000000000000000000000", expected: "a payment", actual: "none" }),
      expect.objectContaining({ payment_id: usd, expected: "partially_refunded", actual: "available_to_merchant" }),
    ]);
  });

  test("available below zero: refused without an open chargeback, allowed with one", async () => {
    // A balanced move of more than is available from available to in transit.
    const moveOut = (tx: Tx) =>
      exec(
        tx,
        sql`
      with t as (insert into ledger_transactions (kind, merchant_id, mode, currency, created_at)
                 values ('payout_requested', ${merchant.merchantId}, 'test', 'GTQ', now()) returning id)
      insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, amount)
      select t.id, a.account, ${merchant.merchantId}, 'test', 'GTQ', a.amount from t, (values ('merchant_available', -999999::bigint), ('merchant_in_transit', 999999::bigint)) a(account, amount)`,
      );
    const without = await verifyAfter(moveOut);
    expect(violationsOf(without)).toEqual([
      expect.objectContaining({
        invariant: "available_not_negative",
        merchant_id: merchant.merchantId,
        mode: "test",
        currency: "GTQ",
        account: "merchant_available",
        expected: ">= 0",
      }),
    ]);
    // A chargeback opened on the captured payment takes its amount from available: below zero, allowed.
    const withChargeback = await verifyAfter(async (tx) => {
      await exec(
        tx,
        sql`insert into chargebacks (id, merchant_id, mode, payment_id, amount, currency, status, reason, opened_at, created_at, updated_at)
                         values ('chb_000000000000000000000001', ${merchant.merchantId}, 'test', ${captured}, 15050, 'GTQ', 'opened', 'fraudulent', now(), now(), now())`,
      );
      await exec(
        tx,
        sql`
        with t as (insert into ledger_transactions (kind, merchant_id, mode, currency, payment_id, chargeback_id, created_at)
                   values ('chargeback_opened', ${merchant.merchantId}, 'test', 'GTQ', ${captured}, 'chb_000000000000000000000001', now()) returning id)
        insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, payment_id, amount)
        select t.id, a.account, ${merchant.merchantId}, 'test', 'GTQ', ${captured}, a.amount from t, (values ('merchant_available', -15050::bigint), ('platform_cash', 15050::bigint)) a(account, amount)`,
      );
      await exec(tx, sql`update payments set status = 'chargeback', status_before_chargeback = 'captured' where id = ${captured}`);
      await moveOut(tx);
    });
    expect(withChargeback).toMatchObject({ ok: true });
  });

  test("a completed payout with no ledger movement: the merchant's total disagrees with the tables", async () => {
    const result = await verifyAfter(async (tx) => {
      await exec(
        tx,
        sql`insert into bank_accounts (id, merchant_id, mode, currency, bank_name, holder_name, account_number, last4, active, created_at, updated_at)
                         values ('ba_000000000000000000000001', ${merchant.merchantId}, 'test', 'USD', 'Banco', 'Ana', '12340001', '0001', true, now(), now())`,
      );
      await exec(
        tx,
        sql`insert into payouts (id, merchant_id, mode, currency, amount, status, bank_account_id, requested_at, completed_at, created_at, updated_at)
                         values ('payout_000000000000000000000001', ${merchant.merchantId}, 'test', 'USD', 300, 'completed', 'ba_000000000000000000000001', now(), now(), now(), now())`,
      );
    });
    expect(violationsOf(result)).toEqual([
      expect.objectContaining({ invariant: "merchant_total", merchant_id: merchant.merchantId, mode: "test", currency: "USD" }),
    ]);
    const total = violationsOf(result)[0]!;
    expect(BigInt(total.actual) - BigInt(total.expected)).toBe(300n);
  });
});

/** A refund row of `amount` and a refund transaction that takes `moved` from the payment's available balance. */
async function refundWithLedger(tx: Tx, refundId: string, paymentId: string, amount: bigint, moved: bigint): Promise<void> {
  const currency = paymentId === usd ? "USD" : "GTQ";
  await exec(
    tx,
    sql`insert into refunds (id, merchant_id, mode, payment_id, amount, currency, reason, status, created_at, updated_at)
                     values (${refundId}, ${merchant.merchantId}, 'test', ${paymentId}, ${amount.toString()}, ${currency}, 'other', 'succeeded', now(), now())`,
  );
  await exec(
    tx,
    sql`
    with t as (insert into ledger_transactions (kind, merchant_id, mode, currency, payment_id, refund_id, created_at)
               values ('refund', ${merchant.merchantId}, 'test', ${currency}, ${paymentId}, ${refundId}, now()) returning id)
    insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, payment_id, amount)
    select t.id, a.account, ${merchant.merchantId}, 'test', ${currency}, ${paymentId}, a.amount
    from t, (values ('merchant_available', ${(-moved).toString()}::bigint), ('platform_cash', ${moved.toString()}::bigint)) a(account, amount)`,
  );
}
