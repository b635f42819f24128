import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/**
 * A payment link: one merchant and mode, a currency, and either a fixed amount or min/max bounds.
 * `succeeded_payments` counts the link's captured payments; it only grows, in the capture's own
 * transaction under this row's lock, which is what keeps `max_payments` under concurrency.
 */
export const Link = defineEntity({
  name: "Link",
  tableName: "links",
  properties: {
    id: p.text().primary(),
    // Tie-breaker for keyset pagination when two links share created_at.
    seq: p.bigint("string").autoincrement().generated("identity"),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("links_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    title: p.text(),
    description: p.text(),
    currency: p.text(),
    fixed_amount: p.bigint("string").nullable(),
    min_amount: p.bigint("string").nullable(),
    max_amount: p.bigint("string").nullable(),
    expires_at: p.datetime(3).nullable(),
    max_payments: p.integer().nullable().check("max_payments > 0"),
    succeeded_payments: p.integer().check("succeeded_payments >= 0"),
    success_url: p.text().nullable(),
    cancel_url: p.text().nullable(),
    active: p.boolean(),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
  },
  checks: [
    {
      name: "links_amount_check",
      expression:
        "(fixed_amount is not null and fixed_amount > 0 and min_amount is null and max_amount is null) or " +
        "(fixed_amount is null and min_amount is not null and max_amount is not null and min_amount > 0 and min_amount <= max_amount)",
    },
  ],
  uniques: [{ name: "links_seq_key", properties: "seq" }],
  indexes: [
    {
      name: "links_list_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }],
    },
  ],
});
