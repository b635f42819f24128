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
    // Branding of the hosted payment and link pages (merchant-settings.ts): #rrggbb, each checked for contrast.
    brand_color: p.text().nullable().check("brand_color ~ '^#[0-9a-f]{6}$'"),
    accent_color: p.text().nullable().check("accent_color ~ '^#[0-9a-f]{6}$'"),
    // The IANA zone the dashboard counts this merchant's days in; DASHBOARD_TIME_ZONE when unset.
    time_zone: p.text().nullable(),
    // The dashboard's language until a user picks one in their browser; null: the browser's language.
    default_language: p.text().nullable().check("default_language in ('es', 'en')"),
  },
});
