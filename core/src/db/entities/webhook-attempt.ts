import { defineEntity, p } from "@mikro-orm/core";
import { WebhookDelivery } from "./webhook-delivery.ts";

/** One HTTP attempt of a delivery: when, what came back (or why nothing did), how long it took. */
export const WebhookAttempt = defineEntity({
  name: "WebhookAttempt",
  tableName: "webhook_attempts",
  properties: {
    seq: p.bigint("string").primary().autoincrement().generated("identity"),
    delivery_id: p
      .manyToOne(WebhookDelivery)
      .fieldName("delivery_id")
      .columnType("text")
      .mapToPk()
      .deleteRule("cascade")
      .foreignKeyName("webhook_attempts_delivery_id_fkey"),
    // Kept beside the delivery's so "has this endpoint only failed for 5 days" is one index range.
    endpoint_id: p.text(),
    attempted_at: p.datetime(3),
    succeeded: p.boolean(),
    http_status: p.integer().nullable(),
    error: p.text().nullable(),
    latency_ms: p.integer(),
    /** At most 1 KiB of the response body. */
    response_excerpt: p.text(),
  },
  indexes: [
    { name: "webhook_attempts_delivery_idx", properties: ["delivery_id", "seq"] },
    { name: "webhook_attempts_endpoint_idx", properties: ["endpoint_id", "succeeded", "attempted_at"] },
  ],
});
