import { db } from "../../db/orm.ts";
import type { Tx } from "../unit-of-work.ts";
import { STAMP_KINDS, VIOLATIONS_PER_INVARIANT, type LedgerViolation } from "./invariants.ts";

/** The exact form of the zero-sum fingerprint: each transaction and currency whose lines do not sum to zero. */
export async function unbalancedTransactions(tx: Tx): Promise<LedgerViolation[]> {
  const rows = await db(tx)
    .selectFrom("ledger_lines as l")
    .select((eb) => [
      eb.cast<string>("l.transaction_id", "text").as("transaction_id"),
      "l.currency",
      eb.fn.min<string | null>("l.payment_id").as("payment_id"),
      eb.cast<string>(eb.fn.sum("l.amount"), "text").as("total"),
    ])
    .groupBy(["l.transaction_id", "l.currency"])
    .having((eb) => eb(eb.fn.sum("l.amount"), "<>", eb.lit(0)))
    .orderBy("l.transaction_id")
    .limit(VIOLATIONS_PER_INVARIANT)
    .execute();
  return rows.map((r) => ({
    invariant: "transaction_balanced",
    transaction_id: r.transaction_id,
    ...(r.payment_id ? { payment_id: r.payment_id } : {}),
    currency: r.currency,
    expected: "0",
    actual: r.total,
    message: `ledger transaction ${r.transaction_id}: its ${r.currency} lines sum to ${r.total}, not 0`,
  }));
}

/** The exact form of the stamp fingerprint: stamps without their transaction, and transactions without their stamp. */
export async function missingMovements(tx: Tx): Promise<LedgerViolation[]> {
  const violations: LedgerViolation[] = [];
  for (const { stamp, kind } of STAMP_KINDS) {
    const missing = await db(tx)
      .selectFrom("payments as p")
      .select("p.id")
      .where(`p.${stamp}`, "is not", null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("ledger_transactions as t")
              .select((s) => s.lit(1).as("one"))
              .whereRef("t.payment_id", "=", "p.id")
              .where("t.kind", "=", kind),
          ),
        ),
      )
      .orderBy("p.id")
      .limit(VIOLATIONS_PER_INVARIANT)
      .execute();
    for (const { id } of missing) {
      violations.push({
        invariant: "payment_has_movement",
        payment_id: id,
        expected: `a ${kind} transaction`,
        actual: "none",
        message: `payment ${id} has ${stamp} set but no ${kind} ledger transaction`,
      });
    }
    const orphans = await db(tx)
      .selectFrom("ledger_transactions as t")
      .select((eb) => [eb.cast<string>("t.id", "text").as("id"), "t.payment_id"])
      .where("t.kind", "=", kind)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("payments as p")
              .select((s) => s.lit(1).as("one"))
              .whereRef("p.id", "=", "t.payment_id")
              .where(`p.${stamp}`, "is not", null),
          ),
        ),
      )
      .orderBy("t.id")
      .limit(VIOLATIONS_PER_INVARIANT)
      .execute();
    for (const o of orphans) {
      violations.push({
        invariant: "movement_has_payment",
        transaction_id: o.id,
        ...(o.payment_id ? { payment_id: o.payment_id } : {}),
        expected: `a payment with ${stamp}`,
        actual: "none",
        message: `${kind} ledger transaction ${o.id} belongs to no payment with ${stamp} set (payment ${o.payment_id ?? "none"})`,
      });
    }
  }
  return violations;
}
