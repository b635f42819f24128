import { sql } from "kysely";
import { db } from "../../db/orm.ts";
import type { Tx } from "../unit-of-work.ts";
import { VIOLATIONS_PER_INVARIANT, type LedgerViolation } from "./invariants.ts";

/** A chargeback whose row and chargeback_opened transaction disagree, or one of the two without the other. */
interface ChargebackMismatch {
  chargeback_id: string | null;
  transaction_id: string | null;
  payment_id: string | null;
  amount: string | null;
  credited: string | null;
}

/** Each chargeback has its chargeback_opened transaction, which credited platform_cash with the chargeback's amount. */
export async function chargebackChecks(tx: Tx): Promise<LedgerViolation[]> {
  // Raw: a full join of chargeback rows with a grouped CTE of their transactions (the shape of refundChecks).
  const rows = await sql<ChargebackMismatch>`
    with opened as (
      select t.id, t.chargeback_id, t.payment_id, coalesce(sum(l.amount) filter (where l.account = 'platform_cash'), 0) as credited
      from ledger_transactions t left join ledger_lines l on l.transaction_id = t.id
      where t.chargeback_id is not null and t.kind = 'chargeback_opened'
      group by t.id, t.chargeback_id, t.payment_id
    )
    select coalesce(c.id, o.chargeback_id) as chargeback_id, o.id::text as transaction_id, coalesce(c.payment_id, o.payment_id) as payment_id,
           c.amount::text as amount, o.credited::text as credited
    from chargebacks c full join opened o on o.chargeback_id = c.id
    where o.id is null or c.id is null or o.credited <> c.amount or o.payment_id is distinct from c.payment_id
    order by 1 limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
  return rows.rows.map((r) => ({
    invariant: "chargeback_has_movement",
    ...(r.payment_id ? { payment_id: r.payment_id } : {}),
    ...(r.transaction_id ? { transaction_id: r.transaction_id } : {}),
    chargeback_id: r.chargeback_id ?? "",
    expected: r.amount ?? "a chargeback row",
    actual: r.credited ?? "no transaction",
    message:
      r.transaction_id === null
        ? `chargeback ${r.chargeback_id} has no chargeback_opened ledger transaction`
        : r.amount === null
          ? `chargeback_opened ledger transaction ${r.transaction_id} belongs to no chargeback row (${r.chargeback_id})`
          : `chargeback ${r.chargeback_id} of ${r.amount} credited ${r.credited} in ledger transaction ${r.transaction_id}`,
  }));
}
