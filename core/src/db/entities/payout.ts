import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";
import { BankAccount } from "./bank-account.ts";

/**
 * A sweep of a merchant's available balance in one currency to its bank account (spec 2.6):
 * requested → processing → sent_to_bank → completed | failed, each step stamped. `claimed_until` is
 * the lease of whoever is moving it through the bank's steps (core/src/jobs/claim.ts).
 */
export const Payout = defineEntity({
  name: "Payout",
  tableName: "payouts",
  properties: {
    id: p.text().primary(),
    seq: p.bigint("string").autoincrement().generated("identity"),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("payouts_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    currency: p.text(),
    amount: p.bigint("string").check("amount > 0"),
    status: p.text().check("status in ('requested', 'processing', 'sent_to_bank', 'completed', 'failed', 'canceled')"),
    bank_account_id: p.manyToOne(BankAccount).fieldName("bank_account_id").columnType("text").mapToPk().foreignKeyName("payouts_bank_account_id_fkey"),
    requested_at: p.datetime(3),
    processing_at: p.datetime(3).nullable(),
    sent_to_bank_at: p.datetime(3).nullable(),
    completed_at: p.datetime(3).nullable(),
    failed_at: p.datetime(3).nullable(),
    canceled_at: p.datetime(3).nullable(),
    failure_reason: p.text().nullable(),
    claimed_until: p.datetime(3).nullable(),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
  },
  uniques: [{ name: "payouts_seq_key", properties: "seq" }],
  indexes: [
    { name: "payouts_list_idx", columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }] },
    // Payouts still on their way through the bank's steps.
    { name: "payouts_open_idx", properties: ["requested_at"], where: "status in ('requested', 'processing', 'sent_to_bank')" },
  ],
});
