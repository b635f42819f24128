import { defineEntity, p } from "@mikro-orm/core";
import { DashboardUser } from "./dashboard-user.ts";
import { Merchant } from "./merchant.ts";

/**
 * A signed-in dashboard session: only the SHA-256 digest of its token is stored. It acts for one
 * merchant in one mode at a time (switched in the dashboard). It has ended when `expires_at`
 * (DASHBOARD_SESSION_MAX after sign-in) has passed or `last_seen_at` is older than
 * DASHBOARD_SESSION_IDLE; ended rows are deleted when met, on sign-out, and by purge.
 */
export const DashboardSession = defineEntity({
  name: "DashboardSession",
  tableName: "dashboard_sessions",
  properties: {
    id: p.text().primary(),
    digest: p.text(),
    user_id: p.manyToOne(DashboardUser).fieldName("user_id").columnType("text").mapToPk().foreignKeyName("dashboard_sessions_user_id_fkey"),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("dashboard_sessions_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    created_at: p.datetime(3),
    last_seen_at: p.datetime(3),
    expires_at: p.datetime(3),
    client_ip: p.text().nullable(),
    user_agent: p.text().nullable(),
  },
  uniques: [{ name: "dashboard_sessions_digest_key", properties: "digest" }],
  indexes: [
    { name: "dashboard_sessions_user_idx", properties: "user_id" },
    { name: "dashboard_sessions_expires_idx", properties: "expires_at" },
  ],
});
