import { defineEntity, p } from "@mikro-orm/core";
import { DashboardUser } from "./dashboard-user.ts";
import { Merchant } from "./merchant.ts";

/**
 * One-use tokens sent to a person as a URL: an invite (to one merchant with one role, DASHBOARD_INVITE_TTL)
 * or a password reset (DASHBOARD_RESET_TTL). Only the SHA-256 digest is stored; `used_at` is set by
 * the one use. Tokens past their lifetime are purged (purge_dashboard_user_tokens).
 */
export const UserToken = defineEntity({
  name: "UserToken",
  tableName: "dashboard_user_tokens",
  properties: {
    digest: p.text().primary(),
    purpose: p.text().check("purpose in ('invite', 'reset')"),
    user_id: p.manyToOne(DashboardUser).fieldName("user_id").columnType("text").mapToPk().foreignKeyName("dashboard_user_tokens_user_id_fkey"),
    merchant_id: p
      .manyToOne(Merchant)
      .fieldName("merchant_id")
      .columnType("text")
      .mapToPk()
      .nullable()
      .foreignKeyName("dashboard_user_tokens_merchant_id_fkey"),
    created_at: p.datetime(3),
    expires_at: p.datetime(3),
    used_at: p.datetime(3).nullable(),
  },
  indexes: [
    { name: "dashboard_user_tokens_user_idx", properties: "user_id" },
    // The purge takes tokens past their lifetime.
    { name: "dashboard_user_tokens_expires_idx", properties: "expires_at" },
  ],
});
