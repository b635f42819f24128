import { defineEntity, p } from "@mikro-orm/core";
import { APPEND_ONLY, LedgerTransaction } from "./ledger-transaction.ts";

/**
 * One side of a ledger transaction. `amount` is signed, credit-positive: a merchant account's balance
 * is the plain sum of its lines (what Paytami owes the merchant); Paytami's own asset accounts
 * (processor_receivable, processor_in_flight, platform_cash) run negative. Each line repeats its
 * transaction's merchant, mode, currency and payment so a balance or a payment's share is one
 * index-only sum.
 */
export const LedgerLine = defineEntity({
  name: "LedgerLine",
  tableName: "ledger_lines",
  properties: {
    id: p.bigint("string").primary().autoincrement().generated("identity"),
    transaction_id: p
      .manyToOne(LedgerTransaction)
      .fieldName("transaction_id")
      .columnType("bigint")
      .mapToPk()
      .foreignKeyName("ledger_lines_transaction_id_fkey"),
    account: p
      .text()
      .check(
        "account in ('merchant_pending', 'merchant_available', 'merchant_in_transit', 'processor_receivable', 'processor_in_flight', 'platform_cash', 'fee_revenue')",
      ),
    merchant_id: p.text(),
    mode: p.text(),
    currency: p.text(),
    payment_id: p.text().nullable(),
    amount: p.bigint("bigint"),
  },
  triggers: [APPEND_ONLY],
  indexes: [
    { name: "ledger_lines_transaction_idx", properties: ["transaction_id"] },
    // Balances: an index-only sum per merchant account.
    { name: "ledger_lines_balance_idx", properties: ["merchant_id", "mode", "currency", "account"], include: ["amount"] },
    // A payment's pending share (what its release moves, what a refund may take).
    { name: "ledger_lines_payment_idx", properties: ["payment_id", "account"], include: ["amount"], where: "payment_id is not null" },
  ],
});
