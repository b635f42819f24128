import { sql } from "kysely";
import { db } from "../../db/orm.ts";
import type { Tx } from "../unit-of-work.ts";
import { MERCHANT_ACCOUNT_LIST, VIOLATIONS_PER_INVARIANT, type LedgerViolation } from "./invariants.ts";

/** A refund whose row and ledger transaction disagree ('refund'), or a payment whose refunds and refund transactions disagree ('payment'). */
interface RefundMismatch {
  what: "refund" | "payment";
  refund_id: string | null;
  transaction_id: string | null;
  payment_id: string | null;
  amount: string | null;
  refunded: string | null;
  moved: string | null;
  status: string | null;
  status_before_chargeback: string | null;
}

/**
 * The exact form of the refund fingerprint: each refund row has its refund transaction, which took
 * exactly the refund's amount from the merchant's accounts (and no refund transaction lacks its
 * row), so each payment's refundable remainder is the same counted from its refunds or from the ledger.
 */
export async function refundChecks(tx: Tx): Promise<LedgerViolation[]> {
  // Raw: a full join of refund rows with a grouped CTE of their transactions, then two row shapes in one union.
  const rows = await sql<RefundMismatch>`
    with moved as (
      select t.id, t.refund_id, t.payment_id, coalesce(-sum(l.amount) filter (where l.account in ${MERCHANT_ACCOUNT_LIST}), 0) as moved
      from ledger_transactions t left join ledger_lines l on l.transaction_id = t.id
      where t.refund_id is not null and t.kind = 'refund'
      group by t.id, t.refund_id, t.payment_id
    ),
    per_refund as (
      select coalesce(r.id, m.refund_id) as refund_id, m.id as transaction_id, coalesce(r.payment_id, m.payment_id) as payment_id,
             r.id is not null as has_row, r.amount, m.moved, r.payment_id as row_payment_id, m.payment_id as ledger_payment_id
      from refunds r full join moved m on m.refund_id = r.id
    ),
    per_payment as (
      select pr.payment_id, coalesce(sum(pr.amount), 0) as refunded, coalesce(sum(pr.moved), 0) as moved from per_refund pr group by pr.payment_id
    ),
    checked as (select pp.*, p.amount, p.status, p.status_before_chargeback from per_payment pp left join payments p on p.id = pp.payment_id)
    select 'refund' as what, refund_id, transaction_id::text, payment_id, amount::text, null as refunded, moved::text, null as status, null as status_before_chargeback
    from per_refund
    where transaction_id is null or not has_row or moved <> amount or row_payment_id is distinct from ledger_payment_id
    union all
    select 'payment', null, null, payment_id, amount::text, refunded::text, moved::text, status, status_before_chargeback
    from checked
    where amount is null or refunded <> moved`.execute(db(tx));
  const violations: LedgerViolation[] = [];
  for (const r of rows.rows) {
    if (violations.length >= VIOLATIONS_PER_INVARIANT * 2) continue;
    const ids = {
      ...(r.refund_id ? { refund_id: r.refund_id } : {}),
      ...(r.payment_id ? { payment_id: r.payment_id } : {}),
      ...(r.transaction_id ? { transaction_id: r.transaction_id } : {}),
    };
    if (r.what === "refund") {
      const message =
        r.transaction_id === null
          ? `refund ${r.refund_id} has no refund ledger transaction`
          : r.amount === null
            ? `refund ledger transaction ${r.transaction_id} belongs to no refund row (${r.refund_id})`
            : `refund ${r.refund_id} of ${r.amount} for ${r.payment_id} took ${r.moved} from the merchant in ledger transaction ${r.transaction_id}`;
      violations.push({ invariant: "refund_has_movement", ...ids, expected: r.amount ?? "a refund row", actual: r.moved ?? "no transaction", message });
      continue;
    }
    if (r.amount === null) {
      violations.push({
        invariant: "refundable_remainder",
        ...ids,
        expected: "a payment",
        actual: "none",
        message: `refunds of ${r.payment_id}, which is no payment`,
      });
      continue;
    }
    const byRows = BigInt(r.amount) - BigInt(r.refunded ?? "0");
    const byLedger = BigInt(r.amount) - BigInt(r.moved ?? "0");
    violations.push({
      invariant: "refundable_remainder",
      ...ids,
      expected: byRows.toString(),
      actual: byLedger.toString(),
      message: `payment ${r.payment_id}: amount − refunds is ${byRows}, amount − its refund transactions is ${byLedger}`,
    });
  }
  return violations;
}

/** A payment with refunds whose remainder or status is wrong (amount null: refunds of no payment). */
interface RemainderMismatch {
  id: string;
  status: string | null;
  status_before_chargeback: string | null;
  amount: string | null;
  refunded: string;
}

/**
 * The exact form of remaindersHold (payments-pass.ts): each payment with refunds whose refundable
 * remainder (amount − Σ refunds) is below zero or whose status does not say what is left (refunded ⇔
 * nothing, partially_refunded ⇔ something; under a chargeback, the status before it), and refunds of no payment.
 */
export async function remainderChecks(tx: Tx): Promise<LedgerViolation[]> {
  // Raw: a left join of a grouped CTE filtered on case expressions, the same expressions remaindersHold counts.
  const rows = await sql<RemainderMismatch>`
    with r as (select payment_id, sum(amount) as refunded from refunds group by payment_id),
    checked as (
      select r.payment_id, r.refunded, p.id, p.amount, p.status, p.status_before_chargeback,
             case when p.status = 'chargeback' then p.status_before_chargeback else p.status end as refund_status
      from r left join payments p on p.id = r.payment_id
    )
    select payment_id as id, status, status_before_chargeback, amount::text, refunded::text from checked
    where id is null or amount < refunded or not ((amount = refunded and refund_status = 'refunded') or (amount > refunded and refund_status = 'partially_refunded'))
    order by payment_id limit ${VIOLATIONS_PER_INVARIANT}`.execute(db(tx));
  return rows.rows.map((r): LedgerViolation => {
    if (r.amount === null) {
      return { invariant: "refundable_remainder", payment_id: r.id, expected: "a payment", actual: "none", message: `refunds of ${r.id}, which is no payment` };
    }
    const left = BigInt(r.amount) - BigInt(r.refunded);
    const status = `${r.status}${r.status === "chargeback" ? ` (before it: ${r.status_before_chargeback})` : ""}`;
    return {
      invariant: "refundable_remainder",
      payment_id: r.id,
      expected: left < 0n ? "refunds <= amount" : left === 0n ? "refunded" : "partially_refunded",
      actual: left < 0n ? `refunds ${r.refunded} > amount ${r.amount}` : status,
      message:
        left < 0n
          ? `payment ${r.id}: its refunds (${r.refunded}) exceed its amount ${r.amount}`
          : `payment ${r.id} is ${status} with ${left} of ${r.amount} left to refund`,
    };
  });
}

/** Payments whose status says refunded or partially refunded, without a refund. */
export async function refundedWithoutRefunds(tx: Tx): Promise<LedgerViolation[]> {
  const rows = await db(tx)
    .selectFrom("payments as p")
    .select(["p.id", "p.status"])
    .where((eb) =>
      eb(eb.case().when("p.status", "=", "chargeback").then(eb.ref("p.status_before_chargeback")).else(eb.ref("p.status")).end(), "in", [
        "refunded",
        "partially_refunded",
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("refunds as r")
            .select((s) => s.lit(1).as("one"))
            .whereRef("r.payment_id", "=", "p.id"),
        ),
      ),
    )
    .orderBy("p.id")
    .limit(VIOLATIONS_PER_INVARIANT)
    .execute();
  return rows.map((p) => ({
    invariant: "refundable_remainder",
    payment_id: p.id,
    expected: "a refund",
    actual: "none",
    message: `payment ${p.id} is ${p.status} but has no refund`,
  }));
}
