import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/**
 * A dispute the processor reports on a payment (spec 2.5). The reason is kept for operators and
 * never leaves through the public interface. At most one open chargeback per payment.
 */
export const Chargeback = defineEntity({
  name: "Chargeback",
  tableName: "chargebacks",
  properties: {
    id: p.text().primary(),
    seq: p.bigint("string").autoincrement().generated("identity"),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("chargebacks_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    payment_id: p.text(),
    amount: p.bigint("string").check("amount > 0"),
    currency: p.text(),
    status: p.text().check("status in ('opened', 'won')"),
    reason: p.text().nullable(),
    opened_at: p.datetime(3),
    won_at: p.datetime(3).nullable(),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
  },
  uniques: [
    { name: "chargebacks_open_payment_key", properties: ["payment_id"], where: "status = 'opened'" },
    { name: "chargebacks_seq_key", properties: "seq" },
  ],
  indexes: [
    { name: "chargebacks_payment_idx", properties: ["payment_id"] },
    // GET /v1/chargebacks: one merchant and mode, newest first (keyset on created_at, seq).
    { name: "chargebacks_list_idx", columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }] },
  ],
});
