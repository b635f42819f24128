// Settlement's one UPDATE against the state table, on a real database: for each step and every state
// a payment can be in, the statement moves the status exactly where TRANSITIONS says (a state the
// step does not move from keeps its status: settlement follows the stamps) and sets the table's
// stamp. Each case runs in a transaction that is rolled back, so every case starts from the same rows.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, rolledBack, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "./api-keys.ts";
import { OPERATOR } from "./caller.ts";
import { createPayment } from "./create-payment.ts";
import type { CoreDeps } from "./deps.ts";
import { createMerchant, type CreatedMerchant } from "./merchants.ts";
import { canApply, PAYMENT_STATUSES, TRANSITIONS } from "./payment-states.ts";
import { transitionPayment } from "./payment-transitions.ts";
import { SETTLEMENT_STEPS, settleStep } from "./settlement.ts";
import { SIMULATION_STEPS } from "./simulate-payment.ts";
import { inTransaction, withoutTransaction, type Tx } from "./unit-of-work.ts";

let database: MigratedDatabase | undefined;
const clock = new Date("2026-11-22T12:00:00.000Z");
let deps: CoreDeps;
let merchant: CreatedMerchant;
/** For each step, a captured payment taken through the steps before it (so the step is due for it). */
const ready: string[] = [];

const thisPayment = (tx: Tx, id: string) => db(tx).selectFrom("payments").select("id").where("id", "=", id);

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => clock });
  deps = database.deps;
  merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Liquidaciones", currencies: [], methods: [] }));
  for (const [i] of SETTLEMENT_STEPS.entries()) {
    const input = { amount: "15000", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
    const created = await withoutTransaction(deps, (tx) =>
      createPayment(deps, tx, presentApiKey(merchant.testApiKey), { idempotencyKey: `settlement-test-${i}`, input }),
    );
    const id = created.value.id;
    await inTransaction(deps, (tx) => transitionPayment(deps, tx, id, SIMULATION_STEPS.succeed));
    for (const before of SETTLEMENT_STEPS.slice(0, i)) await inTransaction(deps, (tx) => settleStep(deps, tx, before, thisPayment(tx, id)));
    ready.push(id);
  }
});

afterAll(() => database?.close());

describe("settlement statement and state table", () => {
  const cases = SETTLEMENT_STEPS.flatMap((step, i) => PAYMENT_STATUSES.map((status) => [step.operation, status, i] as const));

  test.each(cases)("%s of a payment in %s: the table's move and stamp", async (operation, status, i) => {
    const id = ready[i]!;
    const stamp = TRANSITIONS[operation].stamp;
    const after = await rolledBack(deps, async (tx) => {
      await db(tx).updateTable("payments").set({ status }).where("id", "=", id).execute();
      const { value: moved } = await settleStep(deps, tx, SETTLEMENT_STEPS[i]!, thisPayment(tx, id));
      const row = await db(tx).selectFrom("payments").select(["status", stamp]).where("id", "=", id).executeTakeFirstOrThrow();
      return { moved, status: row.status, stamped: row[stamp] };
    });
    expect(after).toEqual({ moved: 1, status: canApply(operation, status) ? TRANSITIONS[operation].to : status, stamped: clock });
  });
});
