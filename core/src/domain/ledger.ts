import { sql } from "kysely";
import { db } from "../db/orm.ts";
import { PreparedStatement, statementBuilder } from "../db/prepared.ts";
import type { Tx } from "./unit-of-work.ts";

// The double-entry ledger: every money movement is one transaction whose lines sum to zero, written
// in the same database transaction as the change it belongs to. Amounts are signed and
// credit-positive: a merchant account's balance is the plain sum of its lines (what Paytami owes the
// merchant), Paytami's asset accounts run negative. Balances are never stored: they are sums of
// lines (ledger_lines_balance_idx makes each an index-only sum), so they cannot drift from them.

/** The merchant's three balances per currency and mode. */
export const MERCHANT_ACCOUNTS = ["merchant_pending", "merchant_available", "merchant_in_transit"] as const;
/** Paytami's side: what the processor owes (captured, then batched), its bank, its fee revenue. */
export const PLATFORM_ACCOUNTS = ["processor_receivable", "processor_in_flight", "platform_cash", "fee_revenue"] as const;
export type MerchantAccount = (typeof MERCHANT_ACCOUNTS)[number];
export type LedgerAccount = MerchantAccount | (typeof PLATFORM_ACCOUNTS)[number];

export const LEDGER_KINDS = [
  "capture",
  "settlement_batch",
  "funds_received",
  "release",
  "refund",
  "chargeback_opened",
  "chargeback_won",
  "payout_requested",
  "payout_completed",
  "payout_failed",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface LedgerLineInput {
  account: LedgerAccount;
  amount: bigint;
}

/** One balanced movement, and the objects it belongs to. */
export interface LedgerEntry {
  kind: LedgerKind;
  merchantId: string;
  mode: string;
  currency: string;
  at: Date;
  paymentId?: string | null;
  refundId?: string | null;
  chargebackId?: string | null;
  payoutId?: string | null;
  lines: readonly LedgerLineInput[];
}

/** The object an entry moves money for: with its kind, unique among entries (the ledger's unique indexes say so too). */
const subjectOf = (e: LedgerEntry): string => e.refundId ?? e.chargebackId ?? e.payoutId ?? e.paymentId ?? "";

/** Ledger writes as parallel arrays (transactions, then lines naming theirs by kind and subject): one statement shape for any number of entries. */
export type LedgerValues = {
  tx_kinds: string[];
  tx_merchant_ids: string[];
  tx_modes: string[];
  tx_currencies: string[];
  tx_payment_ids: (string | null)[];
  tx_refund_ids: (string | null)[];
  tx_chargeback_ids: (string | null)[];
  tx_payout_ids: (string | null)[];
  tx_created_at: Date[];
  line_kinds: string[];
  line_subjects: string[];
  line_accounts: string[];
  line_merchant_ids: string[];
  line_modes: string[];
  line_currencies: string[];
  line_payment_ids: (string | null)[];
  line_amounts: string[];
};

/**
 * The values that write `entries` (each a balanced transaction). Lines of zero are left out; an
 * entry with nothing left is not written. An unbalanced entry is a programming error and throws
 * before anything is written.
 */
export function ledgerValues(entries: readonly LedgerEntry[]): LedgerValues {
  const written = entries.map((entry) => ({ entry, lines: entry.lines.filter((line) => line.amount !== 0n) })).filter((e) => e.lines.length > 0);
  for (const { entry, lines } of written) {
    const sum = lines.reduce((total, line) => total + line.amount, 0n);
    if (sum !== 0n) throw new Error(`unbalanced ledger transaction ${entry.kind} for ${subjectOf(entry)}: lines sum to ${sum}`);
  }
  const t = written.map(({ entry }) => entry);
  const l = written.flatMap(({ entry, lines }) => lines.map((line) => ({ entry, line })));
  return {
    tx_kinds: t.map((e) => e.kind),
    tx_merchant_ids: t.map((e) => e.merchantId),
    tx_modes: t.map((e) => e.mode),
    tx_currencies: t.map((e) => e.currency),
    tx_payment_ids: t.map((e) => e.paymentId ?? null),
    tx_refund_ids: t.map((e) => e.refundId ?? null),
    tx_chargeback_ids: t.map((e) => e.chargebackId ?? null),
    tx_payout_ids: t.map((e) => e.payoutId ?? null),
    tx_created_at: t.map((e) => e.at),
    line_kinds: l.map(({ entry }) => entry.kind),
    line_subjects: l.map(({ entry }) => subjectOf(entry)),
    line_accounts: l.map(({ line }) => line.account),
    line_merchant_ids: l.map(({ entry }) => entry.merchantId),
    line_modes: l.map(({ entry }) => entry.mode),
    line_currencies: l.map(({ entry }) => entry.currency),
    line_payment_ids: l.map(({ entry }) => entry.paymentId ?? null),
    line_amounts: l.map(({ line }) => line.amount.toString()),
  };
}

/** The name `ledgerLinesInsert` reads the written transactions under: give `ledgerTransactionsInsert`'s CTE this name. */
export const LEDGER_TRANSACTIONS_CTE = "ledger_transactions_written";

// Both are CTE bodies (parenthesised: Kysely does not wrap a raw CTE body) that only pass `v`
// through, so a larger statement can include them and be compiled once (PreparedStatement).
// Raw: any number of rows from one bound array per column (`unnest(…) as l(…)`), which the builder cannot write.

/** Inserts the transactions; each row names its subject, for the lines to join on. */
export function ledgerTransactionsInsert(v: LedgerValues) {
  return sql<{ id: string; kind: string; subject: string }>`(
    insert into ledger_transactions (kind, merchant_id, mode, currency, payment_id, refund_id, chargeback_id, payout_id, created_at)
    select * from unnest(
      ${v.tx_kinds}::text[], ${v.tx_merchant_ids}::text[], ${v.tx_modes}::text[], ${v.tx_currencies}::text[], ${v.tx_payment_ids}::text[],
      ${v.tx_refund_ids}::text[], ${v.tx_chargeback_ids}::text[], ${v.tx_payout_ids}::text[], ${v.tx_created_at}::timestamptz[])
    returning id, kind, coalesce(refund_id, chargeback_id, payout_id, payment_id, '') as subject)`;
}

/**
 * Inserts the lines, each joined back to its transaction by (kind, subject), in the order given: a
 * line's id is its place in the transaction, and the join alone may put them in any order (a named
 * statement's generic plan hashes the other side).
 */
export function ledgerLinesInsert(v: LedgerValues) {
  return sql<{ id: string }>`(
    insert into ledger_lines (transaction_id, account, merchant_id, mode, currency, payment_id, amount)
    select t.id, l.account, l.merchant_id, l.mode, l.currency, l.payment_id, l.amount
    from unnest(
      ${v.line_kinds}::text[], ${v.line_subjects}::text[], ${v.line_accounts}::text[], ${v.line_merchant_ids}::text[], ${v.line_modes}::text[],
      ${v.line_currencies}::text[], ${v.line_payment_ids}::text[], ${v.line_amounts}::bigint[]
    ) with ordinality as l(kind, subject, account, merchant_id, mode, currency, payment_id, amount, ord)
    join ${sql.table(LEDGER_TRANSACTIONS_CTE)} as t on t.kind = l.kind and t.subject = l.subject
    order by l.ord
    returning ledger_lines.id)`;
}

const POST_LEDGER = new PreparedStatement((v: LedgerValues) =>
  statementBuilder
    .with(LEDGER_TRANSACTIONS_CTE, () => ledgerTransactionsInsert(v))
    .with("ledger_lines_written", () => ledgerLinesInsert(v))
    .selectNoFrom(sql<number>`1`.as("written")),
);

/** Writes `entries` (each a balanced transaction) in one statement, whatever their number (see ledgerValues). */
export async function postLedger(tx: Tx, entries: readonly LedgerEntry[]): Promise<void> {
  const values = ledgerValues(entries);
  if (values.tx_kinds.length === 0) return;
  await POST_LEDGER.run(db(tx), values);
}

/** The money of a payment as the ledger needs it. */
export interface PaymentMoney {
  id: string;
  merchant_id: string;
  mode: string;
  currency: string;
  amount: string | bigint;
  service_fee: string | bigint;
  net_amount: string | bigint;
}

const base = (kind: LedgerKind, p: PaymentMoney, at: Date) => ({ kind, merchantId: p.merchant_id, mode: p.mode, currency: p.currency, paymentId: p.id, at });

/** Capture: the processor owes the gross amount; the merchant is owed the net (pending), Paytami earns the fee. */
export function captureEntry(p: PaymentMoney, at: Date): LedgerEntry {
  return {
    ...base("capture", p, at),
    lines: [
      { account: "processor_receivable", amount: -BigInt(p.amount) },
      { account: "fee_revenue", amount: BigInt(p.service_fee) },
      { account: "merchant_pending", amount: BigInt(p.net_amount) },
    ],
  };
}

/** Settlement batch: the captured amount is on its way from the processor. */
export function settlementBatchEntry(p: PaymentMoney, at: Date): LedgerEntry {
  return {
    ...base("settlement_batch", p, at),
    lines: [
      { account: "processor_receivable", amount: BigInt(p.amount) },
      { account: "processor_in_flight", amount: -BigInt(p.amount) },
    ],
  };
}

/** Funds received: the processor's money is in Paytami's bank. */
export function fundsReceivedEntry(p: PaymentMoney, at: Date): LedgerEntry {
  return {
    ...base("funds_received", p, at),
    lines: [
      { account: "processor_in_flight", amount: BigInt(p.amount) },
      { account: "platform_cash", amount: -BigInt(p.amount) },
    ],
  };
}

/**
 * Release: what is left of the payment's pending share (its net, less refunds taken from pending)
 * becomes available. Nothing when nothing is left: a refund larger than the net leaves the
 * difference owed in pending (README "Balances").
 */
export function releaseEntry(p: PaymentMoney, pendingShare: bigint, at: Date): LedgerEntry {
  const released = pendingShare > 0n ? pendingShare : 0n;
  return {
    ...base("release", p, at),
    lines: [
      { account: "merchant_pending", amount: -released },
      { account: "merchant_available", amount: released },
    ],
  };
}

/** Each payment's pending share: the sum of its lines on merchant_pending (capture, refunds taken from it). */
export async function pendingShares(tx: Tx, paymentIds: readonly string[]): Promise<Map<string, bigint>> {
  const shares = new Map<string, bigint>();
  if (paymentIds.length === 0) return shares;
  const rows = await db(tx)
    .selectFrom("ledger_lines")
    .select(["payment_id", (eb) => eb.fn.sum<string>("amount").as("share")])
    .where("payment_id", "in", paymentIds)
    .where("account", "=", "merchant_pending")
    .groupBy("payment_id")
    .execute();
  for (const row of rows) shares.set(row.payment_id!, BigInt(row.share));
  return shares;
}

export interface Balance {
  currency: string;
  pending: bigint;
  available: bigint;
  in_transit: bigint;
}

const BALANCE_FIELD = { merchant_pending: "pending", merchant_available: "available", merchant_in_transit: "in_transit" } as const satisfies Record<
  MerchantAccount,
  keyof Balance
>;

/** A merchant's balances in one mode, per currency it has ever had money in: sums of its ledger lines. */
export async function merchantBalances(tx: Tx, merchantId: string, mode: string, currency?: string): Promise<Balance[]> {
  let query = db(tx)
    .selectFrom("ledger_lines")
    .select(["currency", "account", (eb) => eb.fn.sum<string>("amount").as("balance")])
    .where("merchant_id", "=", merchantId)
    .where("mode", "=", mode)
    .where("account", "in", MERCHANT_ACCOUNTS);
  if (currency) query = query.where("currency", "=", currency);
  const rows = await query.groupBy(["currency", "account"]).orderBy("currency").execute();
  const byCurrency = new Map<string, Balance>();
  for (const row of rows) {
    const balance = byCurrency.get(row.currency) ?? { currency: row.currency, pending: 0n, available: 0n, in_transit: 0n };
    balance[BALANCE_FIELD[row.account as MerchantAccount]] = BigInt(row.balance);
    byCurrency.set(row.currency, balance);
  }
  return [...byCurrency.values()];
}

/** The advisory-lock namespace of a merchant's funds (two-key form: namespace, hash of merchant·mode·currency). */
const FUNDS_LOCK = 7_242_100;

/**
 * Serializes, until `tx` ends, everything that takes money out of one merchant balance on the
 * condition that it is there (payouts, refunds of released payments), and returns that balance
 * as it stands under the lock. Movements that only add, or may go below zero (a chargeback),
 * need no lock. `tx` must be a transaction.
 */
export async function lockMerchantFunds(tx: Tx, merchantId: string, mode: string, currency: string): Promise<Balance> {
  await db(tx)
    .selectNoFrom((eb) => eb.fn("pg_advisory_xact_lock", [eb.val(FUNDS_LOCK), eb.fn("hashtext", [eb.val(`${merchantId}:${mode}:${currency}`)])]).as("locked"))
    .execute();
  const [balance] = await merchantBalances(tx, merchantId, mode, currency);
  return balance ?? { currency, pending: 0n, available: 0n, in_transit: 0n };
}
