import { defineEntity, p } from "@mikro-orm/core";

/**
 * The merchants' request logs (issue 17 item 4): one row per `/v1` request a facade recorded, its
 * bodies already redacted by the facade (no card data, no secrets) and capped. Written in batches by
 * the core's writer (jobs/request-log-writer.ts), kept REQUEST_LOG_RETENTION. No foreign keys: a row
 * outlives its key, and a batch insert must not take locks on api_keys.
 */
export const RequestLog = defineEntity({
  name: "RequestLog",
  tableName: "request_logs",
  properties: {
    seq: p.bigint("string").primary().autoincrement().generated("identity"),
    merchant_id: p.text(),
    mode: p.text(),
    api_key_id: p.text(),
    // When the request arrived at the facade.
    created_at: p.datetime(3),
    method: p.text(),
    path: p.text(),
    status: p.smallint(),
    code: p.text().nullable(),
    latency_ms: p.integer(),
    request_id: p.text(),
    idempotency_key: p.text().nullable(),
    replayed: p.boolean(),
    client_ip: p.text().nullable(),
    request_body: p.text().nullable(),
    response_body: p.text().nullable(),
  },
  indexes: [
    // The dashboard's list and `paytami logs tail`: one merchant's mode, newest first (keyset on created_at, seq).
    {
      name: "request_logs_list_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }],
    },
    // The list filtered to 4xx or 5xx, what a developer looks for: rare, so walking request_logs_list_idx
    // for them would read the whole retention window. Partial: a successful request adds no entry. The
    // status last, so a 5xx filter skips the 4xx entries inside the index, without visiting their rows.
    {
      name: "request_logs_failed_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }, { name: "status" }],
      where: "status >= 400",
    },
    // The request-id filter (a support question starts from the Request-Id header).
    { name: "request_logs_request_id_idx", properties: ["merchant_id", "mode", "request_id"] },
    // The retention purge takes the oldest rows.
    { name: "request_logs_created_idx", properties: "created_at" },
  ],
});
