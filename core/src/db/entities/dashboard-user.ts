import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/**
 * A person who signs in to the merchant dashboard (DESIGN §5). The e-mail is kept lower-cased, so
 * its unique index is case-insensitive. No password hash yet: invited, the invite not yet accepted.
 * The TOTP secret is set once the user confirmed a code for it; the pending one between
 * dashboard.security.totpStart and totpEnable.
 */
export const DashboardUser = defineEntity({
  name: "DashboardUser",
  tableName: "dashboard_users",
  properties: {
    id: p.text().primary(),
    email: p.text(),
    password_hash: p.text().nullable(),
    totp_secret: p.text().nullable(),
    totp_pending_secret: p.text().nullable(),
    // The 30-second step of the last code accepted: a code is good once (RFC 6238 §5.2).
    totp_last_step: p.integer().nullable(),
    preferred_mode: p.text().check("preferred_mode in ('test', 'live')").default("test"),
    preferred_merchant_id: p
      .manyToOne(Merchant)
      .fieldName("preferred_merchant_id")
      .columnType("text")
      .mapToPk()
      .nullable()
      .foreignKeyName("dashboard_users_preferred_merchant_id_fkey"),
    language: p.text().nullable(),
    created_at: p.datetime(3),
  },
  uniques: [{ name: "dashboard_users_email_key", properties: "email" }],
});
