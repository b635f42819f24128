import { defineEntity, p } from "@mikro-orm/core";

export const Merchant = defineEntity({
  name: "Merchant",
  tableName: "merchants",
  properties: {
    id: p.text().primary(),
    name: p.text(),
    trade_name: p.text(),
    currencies: p.array(),
    methods: p.array(),
    created_at: p.datetime(3),
    // https origins allowed to frame the live embedded checkout (and to receive its postMessage).
    embed_origins: p.array().default([]),
    // Origins (http or https) a public link pay may send the customer back to, besides the link's own URLs.
    return_origins: p.array().default([]),
  },
});
