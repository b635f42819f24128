// The refund's one write statement against the state table, on a real database: a refund planned
// for a captured payment is written while the row says each state in turn (as if the planner had
// read another state than the statement finds). The statement must move the payment exactly from
// the states the table refunds from, to the move the table chose; from any other state the refund is
// refused whole. Each case runs in a transaction that is rolled back.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, rolledBack, type MigratedDatabase } from "../../../../test/support/database.ts";
import { db } from "../../db/orm.ts";
import { presentApiKey } from "../api-keys.ts";
import { OPERATOR } from "../caller.ts";
import { createPayment } from "../create-payment.ts";
import type { CoreDeps } from "../deps.ts";
import { createMerchant } from "../merchants.ts";
import { canApply, PAYMENT_STATUSES, TRANSITIONS } from "../payment-states.ts";
import { transitionPayment } from "../payment-transitions.ts";
import { SIMULATION_STEPS } from "../simulate-payment.ts";
import { inTransaction, withoutTransaction, type Tx } from "../unit-of-work.ts";
import { lockPayment } from "./lock.ts";
import { planRefund, type PlannedRefund } from "./plan.ts";
import { writeRefund, writeRefundRecorded } from "./write.ts";

let database: MigratedDatabase | undefined;
const clock = new Date("2026-11-22T12:00:00.000Z");
let deps: CoreDeps;
let paymentId: string;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => clock });
  deps = database.deps;
  const merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Devoluciones", currencies: [], methods: [] }));
  const input = { amount: "15000", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
  const created = await withoutTransaction(deps, (tx) =>
    createPayment(deps, tx, presentApiKey(merchant.testApiKey), { idempotencyKey: "refund-write-test", input }),
  );
  paymentId = created.value.id;
  await inTransaction(deps, (tx) => transitionPayment(deps, tx, paymentId, SIMULATION_STEPS.succeed));
});

afterAll(() => database?.close());

const stored = async () => {
  const trx = db(deps.orm.em.fork());
  const payment = await trx.selectFrom("payments").select(["status", "refunded_at"]).where("id", "=", paymentId).executeTakeFirstOrThrow();
  const refunds = await trx.selectFrom("refunds").select("id").where("payment_id", "=", paymentId).execute();
  return { ...payment, refunds: refunds.length };
};

describe("refund write statement and state table", () => {
  // refundPart: 50.00 of 150.00; refundRest: all of it.
  const moves = [
    ["refundPart", 5000n],
    ["refundRest", undefined],
  ] as const;
  // Both forms of the statement: refundPayment's, and createRefund's that records the event too.
  const writers = { writeRefund, writeRefundRecorded: (tx: Tx, planned: PlannedRefund) => writeRefundRecorded(tx, planned, undefined) };
  const cases = (Object.keys(writers) as (keyof typeof writers)[]).flatMap((writer) =>
    moves.flatMap(([operation, amount]) => PAYMENT_STATUSES.map((status) => [operation, status, writer, amount] as const)),
  );

  test.each(cases)("%s written over a payment in %s (%s)", async (operation, status, writer, amount) => {
    const write = async (tx: Tx) => {
      const planned = await planRefund(deps, tx, (await lockPayment(tx, paymentId))!, amount, "other");
      await db(tx).updateTable("payments").set({ status }).where("id", "=", paymentId).execute();
      await writers[writer](tx, planned);
      const after = await db(tx).selectFrom("payments").select(["status", "refunded_at"]).where("id", "=", paymentId).executeTakeFirstOrThrow();
      const refunds = await db(tx).selectFrom("refunds").select("id").where("payment_id", "=", paymentId).execute();
      const events = await db(tx).selectFrom("outbox_events").select("id").where("type", "=", "refund.succeeded").execute();
      return { ...after, refunds: refunds.length, recorded: events.length };
    };
    if (canApply(operation, status)) {
      const recorded = writer === "writeRefundRecorded" ? 1 : 0;
      expect(await rolledBack(deps, write)).toEqual({ status: TRANSITIONS[operation].to, refunded_at: clock, refunds: 1, recorded });
    } else {
      // The statement wrote its other rows; the error rolls them back with the rest (as it does in createRefund's transaction).
      await expect(rolledBack(deps, write)).rejects.toThrow("the payment is in no state the state table refunds from (the plan and the statement disagree)");
    }
    expect(await stored()).toEqual({ status: "captured", refunded_at: null, refunds: 0 });
  });
});
