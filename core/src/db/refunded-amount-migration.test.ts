// The migration that added payments.refunded_amount (the running total a refund reads with the row
// lock) against a database that already has payments and refunds: taken down and up again, it
// backfills each payment's total from its refunds, so no payment can be refunded past its amount
// because its history predates the column.
import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { presentApiKey } from "../domain/api-keys.ts";
import { OPERATOR } from "../domain/caller.ts";
import { createPayment } from "../domain/create-payment.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { createMerchant } from "../domain/merchants.ts";
import { transitionPayment } from "../domain/payment-transitions.ts";
import { createRefund } from "../domain/refunds.ts";
import { SIMULATION_STEPS } from "../domain/simulate-payment.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { db } from "./orm.ts";

const BEFORE = "Migration20261125221046_merchant_settings";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => new Date() });
  deps = { ...database.deps, config: { ...database.deps.config, refundBatch: { on: false, max: 1, waitMs: 0 } } };
});

afterAll(() => database?.close());

test("taken down and up again over existing refunds, it backfills every payment's running total", async () => {
  const { testApiKey } = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Historia", currencies: [], methods: [] }));
  const key = presentApiKey(testApiKey);
  const refundsOf: Record<string, string[]> = {};
  // Four captured payments of 10.00: no refund, one, three, and refunded in full.
  for (const [i, amounts] of [[], ["250"], ["100", "200", "300"], ["400", "600"]].entries()) {
    const input = { amount: "1000", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
    const { value: payment } = await withoutTransaction(deps, (tx) => createPayment(deps, tx, key, { idempotencyKey: `backfill-${i}`, input }));
    await inTransaction(deps, (tx) => transitionPayment(deps, tx, payment.id, SIMULATION_STEPS.succeed));
    for (const [j, amount] of amounts.entries())
      await withoutTransaction(deps, (tx) => createRefund(deps, tx, key, { idempotencyKey: `backfill-${i}-${j}`, input: { payment_id: payment.id, amount } }));
    refundsOf[payment.id] = amounts;
  }
  const totals = async () =>
    Object.fromEntries(
      (await db(deps.orm.em.fork()).selectFrom("payments").select(["id", "refunded_amount"]).execute()).map((p) => [p.id, String(p.refunded_amount)]),
    );
  const expected = Object.fromEntries(Object.entries(refundsOf).map(([id, amounts]) => [id, String(amounts.reduce((sum, a) => sum + Number(a), 0))]));
  expect(await totals()).toEqual(expected);

  await deps.orm.migrator.down({ to: BEFORE });
  const columns = await sql<{
    n: number;
  }>`select count(*)::int as n from information_schema.columns where table_name = 'payments' and column_name = 'refunded_amount'`.execute(
    db(deps.orm.em.fork()),
  );
  expect(columns.rows[0]!.n).toBe(0);

  await deps.orm.migrator.up();
  expect(await totals()).toEqual(expected);
  // The CHECK came back with it: a total above the amount is refused by the database itself.
  await expect(
    db(deps.orm.em.fork()).updateTable("payments").set({ refunded_amount: "1001" }).where("id", "=", Object.keys(expected)[0]!).execute(),
  ).rejects.toThrow(/payments_refunded_amount_check/);
});
