import { sql } from "kysely";
import { db } from "../../db/orm.ts";
import { MERCHANT_ACCOUNTS } from "../ledger.ts";
import type { Tx } from "../unit-of-work.ts";
import { idHash } from "./fingerprints.ts";
import { STAMP_KINDS, type StampColumn } from "./invariants.ts";

/** A (merchant, mode, currency) with ledger lines, and its balances as the service sums them (text integers). */
export interface BalanceRow {
  merchant_id: string;
  mode: string;
  currency: string;
  pending: string;
  available: string;
  in_transit: string;
}

/** Pass 3, per merchant, mode and currency: the payments, the captured ones' net, and in `k<i>` the fingerprint of the payments with STAMP_KINDS[i]'s stamp. */
export type PaymentGroupRow = {
  merchant_id: string;
  mode: string;
  currency: string;
  payments: string;
  captured: string;
  /** Null when none is captured. */
  net: string | null;
} & { [column: StampColumn]: string | null };

/** The refunds, open chargebacks and completed payouts of a merchant, mode and currency. */
export interface TableTotalRow {
  source: "refunds" | "chargebacks" | "payouts";
  merchant_id: string;
  mode: string;
  currency: string;
  total: string;
  n: string;
}

export interface PaymentsPass {
  balances: BalanceRow[];
  paymentGroups: PaymentGroupRow[];
  remaindersAgree: boolean;
  tables: TableTotalRow[];
}

/** Passes 3 and 4: the payments and their refunds, the balances, the other tables' totals. */
export async function paymentsPass(tx: Tx, seed: bigint): Promise<PaymentsPass> {
  const q = db(tx);
  // 4 (first): every (merchant, mode, currency) with ledger lines, found by skipping through the
  // balance index (one probe per group), and its balances: per merchant account, the index-only sum
  // of its lines, as merchantBalances sums them.
  // Raw: a loose index scan (recursive CTE stepping by row comparison, a limit inside the anchor) the builder cannot write.
  const balances = (
    await sql<BalanceRow>`
      with recursive g as (
        (select merchant_id, mode, currency from ledger_lines order by merchant_id, mode, currency, account limit 1)
        union all
        select n.merchant_id, n.mode, n.currency from g cross join lateral (
          select l.merchant_id, l.mode, l.currency from ledger_lines l
          where (l.merchant_id, l.mode, l.currency) > (g.merchant_id, g.mode, g.currency)
          order by l.merchant_id, l.mode, l.currency, l.account limit 1) n
      )
      select g.merchant_id, g.mode, g.currency,
             ${sql.join(
               MERCHANT_ACCOUNTS.map(
                 (account) => sql`coalesce((select sum(l.amount) from ledger_lines l
               where l.merchant_id = g.merchant_id and l.mode = g.mode and l.currency = g.currency and l.account = ${account}), 0)::text
               as ${sql.ref(account.replace("merchant_", ""))}`,
               ),
               sql`, `,
             )}
      from g`.execute(q)
  ).rows;
  // 3: the pass over payments; then the refundable remainder of each refunded payment, exactly.
  // Raw: seeded hash terms made per run, filtered aggregates over one scan, as benchmarked.
  const paymentGroups = (
    await sql<PaymentGroupRow>`
      select p.merchant_id, p.mode, p.currency, count(*)::text as payments, count(p.captured_at)::text as captured,
             sum(p.net_amount) filter (where p.captured_at is not null)::text as net,
             ${sql.join(
               STAMP_KINDS.map(
                 (s, k) => sql`sum(${idHash(seed, "p.id", 10 + k)}) filter (where p.${sql.ref(s.stamp)} is not null)::text as ${sql.ref(`k${k}`)}`,
               ),
               sql`, `,
             )}
      from payments p group by p.merchant_id, p.mode, p.currency`.execute(q)
  ).rows;
  const remaindersAgree = await remaindersHold(tx);
  // Raw: three grouped totals with filtered aggregates in one union, as benchmarked.
  const tables = (
    await sql<TableTotalRow>`
      select 'refunds' as source, merchant_id, mode, currency, sum(amount)::text as total, count(*)::text as n from refunds group by merchant_id, mode, currency
      union all
      select 'chargebacks', merchant_id, mode, currency, coalesce(sum(amount) filter (where status = 'opened'), 0)::text, count(*) filter (where status = 'opened')::text
      from chargebacks group by merchant_id, mode, currency
      union all
      select 'payouts', merchant_id, mode, currency, coalesce(sum(amount) filter (where status = 'completed'), 0)::text, count(*)::text from payouts group by merchant_id, mode, currency`.execute(
      q,
    )
  ).rows;
  return { balances, paymentGroups, remaindersAgree, tables };
}

/**
 * Whether every refundable remainder holds, in one pass that joins only the payments whose status
 * says refunded or partially refunded (a tenth of them, typically) with their refunds per payment:
 * each such payment has refunds, not more than its amount, and its status says what is left; and
 * every payment with refunds is one of them (the refund groups all joined), so a refund of a payment
 * that does not say refunded, or of no payment at all, also answers false. Hashing only those
 * payments costs about a third less than joining all refunds with all payments (remainderChecks);
 * when this answers false, remainderChecks and refundedWithoutRefunds name the payments.
 */
async function remaindersHold(tx: Tx): Promise<boolean> {
  // Raw: counts filtered on case expressions over a left join, one statement as benchmarked.
  const row = (
    await sql<{ refunded_payments: string; joined: string; bad: string }>`
      with r as (select payment_id, sum(amount) as refunded from refunds group by payment_id)
      select (select count(*) from r)::text as refunded_payments, count(r.payment_id)::text as joined,
             count(*) filter (where r.payment_id is null or p.amount < r.refunded
               or (case when p.amount = r.refunded then 'refunded' else 'partially_refunded' end)
                  <> (case when p.status = 'chargeback' then p.status_before_chargeback else p.status end))::text as bad
      from payments p left join r on r.payment_id = p.id
      where p.status in ('refunded', 'partially_refunded')
         or (p.status = 'chargeback' and p.status_before_chargeback in ('refunded', 'partially_refunded'))`.execute(db(tx))
  ).rows[0]!;
  return row.bad === "0" && row.refunded_payments === row.joined;
}
