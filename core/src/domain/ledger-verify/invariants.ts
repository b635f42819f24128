import { sql } from "kysely";

// What `paytami ledger verify` checks and how it reports it: the invariants, the shape of a
// violation and of the answer, and the constants the passes and the exact queries share.

/** One broken invariant: which, the objects it concerns, what it should be and what it is. */
export interface LedgerViolation {
  invariant: LedgerInvariant;
  transaction_id?: string;
  payment_id?: string;
  refund_id?: string;
  chargeback_id?: string;
  merchant_id?: string;
  mode?: string;
  currency?: string;
  account?: string;
  expected: string;
  actual: string;
  message: string;
}

export type LedgerInvariant =
  | "transaction_balanced"
  | "payment_has_movement"
  | "movement_has_payment"
  | "balances_equal_lines"
  | "refund_has_movement"
  | "chargeback_has_movement"
  | "refundable_remainder"
  | "available_not_negative"
  | "merchant_total";

export interface LedgerChecked {
  transactions: number;
  lines: number;
  payments: number;
  captured_payments: number;
  refunds: number;
  chargebacks: number;
  payouts: number;
  /** (merchant, mode, currency) balances checked. */
  balances: number;
}

export type LedgerVerification = { ok: true; checked: LedgerChecked } | { ok: false; checked: LedgerChecked; violations: LedgerViolation[] };

/** At most this many violations of one invariant are listed (the first ones, by id). */
export const VIOLATIONS_PER_INVARIANT = 100;

/** The payment stamps that each require exactly one ledger transaction of their kind, and no such transaction without it. */
export const STAMP_KINDS = [
  { stamp: "captured_at", kind: "capture" },
  { stamp: "pending_settlement_at", kind: "settlement_batch" },
  { stamp: "settled_to_paytami_at", kind: "funds_received" },
] as const;

/** The column a pass names the fingerprint of STAMP_KINDS[k] by: `k0`, `k1`, `k2`. */
export type StampColumn = `k${number}`;

/** The merchant accounts as an SQL list literal, for `account in …` in raw statements. */
export const MERCHANT_ACCOUNT_LIST = sql.raw(`('merchant_pending', 'merchant_available', 'merchant_in_transit')`);

/** An integer column as PostgreSQL's text, or null: sums and counts come back as text so no bigint loses precision. */
export const big = (value: string | null | undefined) => BigInt(value ?? "0");

/** Σ `column` over `rows`, each a text integer (null: 0). */
export const sumOf = <C extends string>(rows: readonly { readonly [K in C]?: string | null }[], column: C) =>
  rows.reduce((sum, row) => sum + big(row[column]), 0n);
