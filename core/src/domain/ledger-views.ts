import { db } from "../db/orm.ts";
import type { MerchantCaller, OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { merchantBalances } from "./ledger.ts";
import type { Tx } from "./unit-of-work.ts";

// What operators and the dashboard read of the ledger: a merchant's balances, and the ledger
// transactions of one payment. Amounts are decimal strings of minor units, signed (a debt shows as
// a negative pending balance).

export interface BalanceView {
  currency: string;
  pending: string;
  available: string;
  in_transit: string;
}

export interface BalancesView {
  merchant_id: string;
  mode: string;
  balances: BalanceView[];
}

export interface LedgerLineView {
  account: string;
  amount: string;
}

export interface LedgerTransactionView {
  id: string;
  kind: string;
  created_at: string;
  lines: LedgerLineView[];
}

export interface PaymentLedgerView {
  payment_id: string;
  transactions: LedgerTransactionView[];
}

/**
 * The merchant's balances in the caller's mode: one per currency the merchant accepts or has ever
 * had money in, each the sum of its ledger lines (zeros for a currency with none yet).
 */
export async function getBalances(deps: CoreDeps, tx: Tx, caller: MerchantCaller): Promise<BalancesView> {
  void deps;
  const merchant = await db(tx).selectFrom("merchants").select(["id", "currencies"]).where("id", "=", caller.merchantId).executeTakeFirst();
  if (!merchant) fail("validation_error", `Unknown merchant ${caller.merchantId}.`);
  const sums = new Map((await merchantBalances(tx, caller.merchantId, caller.mode)).map((b) => [b.currency, b]));
  const currencies = [...new Set([...merchant!.currencies, ...sums.keys()])].sort();
  return {
    merchant_id: caller.merchantId,
    mode: caller.mode,
    balances: currencies.map((currency) => {
      const b = sums.get(currency);
      return { currency, pending: String(b?.pending ?? 0n), available: String(b?.available ?? 0n), in_transit: String(b?.in_transit ?? 0n) };
    }),
  };
}

/**
 * Every ledger transaction of one payment (capture, settlement steps, refunds, chargebacks), oldest
 * first, with its lines. A merchant sees only its own payments of its mode; another's answers
 * exactly like a missing one.
 */
export async function getPaymentLedger(deps: CoreDeps, tx: Tx, caller: MerchantCaller | OperatorCaller, paymentId: string): Promise<PaymentLedgerView> {
  void deps;
  let payment = db(tx).selectFrom("payments").select("id").where("id", "=", paymentId);
  if (caller.kind === "merchant") payment = payment.where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
  if (!(await payment.executeTakeFirst())) throw new DomainError("unknown_payment", "No such payment.");
  const rows = await db(tx)
    .selectFrom("ledger_transactions as t")
    .innerJoin("ledger_lines as l", "l.transaction_id", "t.id")
    .select(["t.id", "t.kind", "t.created_at", "l.account", "l.amount", "l.id as line_id"])
    .where("t.payment_id", "=", paymentId)
    .orderBy("t.id")
    .orderBy("l.id")
    .execute();
  const transactions = new Map<string, LedgerTransactionView>();
  for (const row of rows) {
    const id = String(row.id);
    let t = transactions.get(id);
    if (!t) {
      t = { id, kind: row.kind, created_at: new Date(row.created_at).toISOString(), lines: [] };
      transactions.set(id, t);
    }
    t.lines.push({ account: row.account, amount: String(row.amount) });
  }
  return { payment_id: paymentId, transactions: [...transactions.values()] };
}
