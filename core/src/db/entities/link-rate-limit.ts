import { defineEntity, p } from "@mikro-orm/core";

/**
 * Payment-link pay attempts per fixed window (LINK_RATE_LIMIT), shared by every core: one row per
 * bucket ("ip:<address>" or "link:<id>") and window start, counted up by one upsert per attempt.
 * Rows of past windows are purged by the purge_link_rate_limits job.
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
