// The pieces of a counter row's upsert into `link_rate_limits` (one row per bucket and fixed window),
// shared by the link pay limit (link-rate-limit.ts) and the card submit limit (card-submit-limit.ts).
import { sql, type OnConflictBuilder } from "kysely";
import type { DB } from "../db/orm.ts";

// The select list of a counter's insert: bound values there need their types named (PostgreSQL
// cannot infer them in a select list) and the 1 must be inline SQL (a PreparedStatement binds only its values).
export const countOne = (bucket: string, windowStart: Date) => [
  sql<string>`${bucket}::text`.as("bucket"),
  sql<Date>`${windowStart}::timestamptz`.as("window_start"),
  sql<number>`1`.as("attempts"),
];

/** A bucket already counted in this window gets one more (the increment's 1 inline, as in countOne). */
export const countAgain = (oc: OnConflictBuilder<DB, "link_rate_limits">) =>
  oc.columns(["bucket", "window_start"]).doUpdateSet({ attempts: sql<number>`link_rate_limits.attempts + 1` });
