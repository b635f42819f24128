import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/**
 * A merchant's bank account for payouts in one currency and mode. The newest active one per
 * (merchant, mode, currency) receives that currency's payouts; `next_payout_at` is when the
 * scheduled sweep (PAYOUT_SCHEDULE) is next due for it, claimed like any other background work.
 */
export const BankAccount = defineEntity({
  name: "BankAccount",
  tableName: "bank_accounts",
  properties: {
    id: p.text().primary(),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("bank_accounts_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    currency: p.text(),
    bank_name: p.text(),
    holder_name: p.text(),
    account_number: p.text(),
    last4: p.text(),
    active: p.boolean(),
    next_payout_at: p.datetime(3).nullable(),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
  },
  uniques: [{ name: "bank_accounts_active_key", properties: ["merchant_id", "mode", "currency"], where: "active" }],
  indexes: [{ name: "bank_accounts_sweep_idx", properties: ["next_payout_at"], where: "active" }],
});
