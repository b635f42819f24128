import { defineEntity, p } from "@mikro-orm/core";

/**
 * Rate-limit counters per fixed window, shared by every core: payment-link pay attempts
 * (LINK_RATE_LIMIT: buckets "ip:<client>" and "link:<id>"), hosted-page card submits
 * (CARD_SUBMIT_LIMIT: "card-ip:<client>" and "card-payment:<id>") and failed dashboard sign-ins
 * (DASHBOARD_LOGIN_LIMIT: "login-account:<e-mail digest>" and "login-ip:<client>"); <client> is an IPv4 address or
 * an IPv6 /64 (proto/client-address.ts). One row per bucket and window start, counted up by one
 * upsert per attempt. Rows of past windows are purged by the purge_link_rate_limits job.
 */
export const LinkRateLimit = defineEntity({
  name: "LinkRateLimit",
  tableName: "link_rate_limits",
  properties: {
    bucket: p.text().primary(),
    window_start: p.datetime(3).primary(),
    attempts: p.integer(),
  },
  indexes: [{ name: "link_rate_limits_window_idx", properties: "window_start" }],
});
