import { sql } from "kysely";
import { db } from "../../db/orm.ts";
import type { Tx } from "../unit-of-work.ts";
import { idHash, unlessOverflow, weight } from "./fingerprints.ts";
import { STAMP_KINDS, type StampColumn } from "./invariants.ts";

/** Pass 1, over ledger_lines (text integers; null: no lines, or a fingerprint that overflowed). */
export interface LinesPass {
  lines: string;
  /** Σ amount·weight(transaction, currency): 0 when every transaction sums to zero in each currency. */
  f: string | null;
  /** The fingerprint of the platform_cash credits on payments (what refunds and opened chargebacks took). */
  credits: string | null;
  /** What the merchant balances must sum to. */
  merchant_total: string | null;
}

/** Pass 2, over ledger_transactions: the count, and in `k<i>` the fingerprint of the payments with a STAMP_KINDS[i] transaction. */
export type MovementsPass = { transactions: string } & { [column: StampColumn]: string | null };

/** The refund and chargeback rows, their transactions (joined through their unique indexes), and the credits those should have made. */
export interface CreditedPass {
  refund_rows: string;
  chargeback_rows: string;
  refund_transactions: string;
  refunds_joined: string;
  chargeback_transactions: string;
  chargebacks_joined: string;
  /** Null when a fingerprint term overflowed. */
  credits: string | null;
}

export interface LedgerPass {
  lines: LinesPass;
  movements: MovementsPass;
  credited: CreditedPass;
}

/** Passes 1 and 2: the lines, the transactions, the refund and chargeback credits. */
export async function ledgerPass(tx: Tx, seed: bigint): Promise<LedgerPass> {
  const q = db(tx);
  // 1: the pass over ledger_lines. Σ amount·weight(transaction, currency) is 0 when every
  // transaction sums to zero in each currency. The platform_cash credits on payments are what
  // refunds and opened chargebacks took; the merchant accounts' total is what the balances must sum to.
  // The currency's hash goes into the seed, so each (transaction, currency) gets its own weight:
  // xor-ing hashtext (int4, sign-extended) into the hash would leave the top 32 bits equal for any
  // two currencies whose hashes have the same sign (GTQ and EUR), and lines moved between them unseen.
  const lineWeight = sql.raw(`amount * ((hashint8extended(transaction_id, ${seed} + hashtext(currency)) >> 32) | 1)`);
  const creditWeight = sql.raw(`amount * ${weight(seed, "transaction_id", 1)}`);
  // Raw (all three statements): seeded hash terms made per run and filtered aggregates over one scan, as benchmarked.
  const lines =
    (await unlessOverflow(
      tx,
      sql<LinesPass>`
      select count(*)::text as lines, sum(${lineWeight})::text as f,
             sum(${creditWeight}) filter (where amount > 0 and account = 'platform_cash' and payment_id is not null)::text as credits,
             sum(amount) filter (where account like 'merchant%')::text as merchant_total
      from ledger_lines`,
    )) ??
    (
      await sql<LinesPass>`
      select count(*)::text as lines, null as f, null as credits, sum(amount) filter (where account like 'merchant%')::text as merchant_total
      from ledger_lines`.execute(q)
    ).rows[0]!;
  // 2: the pass over ledger_transactions; then the credits refund and chargeback transactions should
  // have made, from their rows (found through their unique indexes: no scan).
  const movements = (
    await sql<MovementsPass>`
      select count(*)::text as transactions,
             ${sql.join(
               STAMP_KINDS.map((s, k) => sql`sum(${idHash(seed, "payment_id", 10 + k)}) filter (where kind = ${s.kind})::text as ${sql.ref(`k${k}`)}`),
               sql`, `,
             )}
      from ledger_transactions`.execute(q)
  ).rows[0]!;
  const creditedQuery = (credits: boolean) => sql<CreditedPass>`
      with refund_moves as (
        select count(*) as transactions, count(r.id) as joined, ${credits ? sql`sum(r.amount * ${sql.raw(weight(seed, "t.id", 1))})` : sql`null::numeric`} as credits
        from ledger_transactions t left join refunds r on r.id = t.refund_id and r.payment_id = t.payment_id
        where t.refund_id is not null and t.kind = 'refund'
      ), chargeback_moves as (
        select count(*) as transactions, count(c.id) as joined, ${credits ? sql`sum(c.amount * ${sql.raw(weight(seed, "t.id", 1))})` : sql`null::numeric`} as credits
        from ledger_transactions t left join chargebacks c on c.id = t.chargeback_id and c.payment_id = t.payment_id
        where t.chargeback_id is not null and t.kind = 'chargeback_opened'
      )
      select (select count(*) from refunds)::text as refund_rows, (select count(*) from chargebacks)::text as chargeback_rows,
             rm.transactions::text as refund_transactions, rm.joined::text as refunds_joined,
             cm.transactions::text as chargeback_transactions, cm.joined::text as chargebacks_joined,
             ${credits ? sql`(coalesce(rm.credits, 0) + coalesce(cm.credits, 0))::text` : sql`null`} as credits
      from refund_moves rm, chargeback_moves cm`;
  const credited = (await unlessOverflow(tx, creditedQuery(true))) ?? (await creditedQuery(false).execute(q)).rows[0]!;
  return { lines, movements, credited };
}
