import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/** A refund (spec 2.4) of part or all of a captured payment; written with its ledger transaction. */
export const Refund = defineEntity({
  name: "Refund",
  tableName: "refunds",
  properties: {
    id: p.text().primary(),
    seq: p.bigint("string").autoincrement().generated("identity"),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("refunds_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    payment_id: p.text(),
    amount: p.bigint("string").check("amount > 0"),
    currency: p.text(),
    reason: p
      .text()
      .check(
        "reason in ('requested_by_customer', 'duplicate_charge', 'product_not_received', 'product_unacceptable', 'merchant_error', 'fraudulent', 'other')",
      ),
    status: p.text().check("status in ('succeeded')"),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
  },
  uniques: [{ name: "refunds_seq_key", properties: "seq" }],
  indexes: [
    { name: "refunds_payment_idx", columns: [{ name: "payment_id" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }] },
    { name: "refunds_list_idx", columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }] },
  ],
});
