import { defineEntity, p } from "@mikro-orm/core";
import { WebhookEndpoint } from "./webhook-endpoint.ts";

/**
 * One event to one endpoint (DESIGN §4 "Delivery model"): written when the dispatcher takes the
 * event from JetStream, then attempted from `next_attempt_at` by whichever dispatcher claims it
 * (`claimed_until` is the lease, core/src/jobs/claim.ts). The body is the event's outbox row, so
 * every attempt sends the same bytes.
 */
export const WebhookDelivery = defineEntity({
  name: "WebhookDelivery",
  tableName: "webhook_deliveries",
  properties: {
    id: p.text().primary(),
    event_id: p.text(),
    event_type: p.text(),
    // Deleting an endpoint deletes its deliveries and their attempts.
    endpoint_id: p
      .manyToOne(WebhookEndpoint)
      .fieldName("endpoint_id")
      .columnType("text")
      .mapToPk()
      .deleteRule("cascade")
      .foreignKeyName("webhook_deliveries_endpoint_id_fkey"),
    merchant_id: p.text(),
    mode: p.text(),
    status: p.text().check("status in ('pending', 'succeeded', 'failed')"),
    /** Every attempt ever made. */
    attempt_count: p.integer(),
    /** Attempts since the delivery was recorded or last replayed: the position in the retry schedule. */
    round_attempts: p.integer(),
    next_attempt_at: p.datetime(3).nullable(),
    claimed_until: p.datetime(3).nullable(),
    last_attempt_at: p.datetime(3).nullable(),
    last_http_status: p.integer().nullable(),
    last_error: p.text().nullable(),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
  },
  uniques: [{ name: "webhook_deliveries_event_endpoint_key", properties: ["event_id", "endpoint_id"] }],
  indexes: [
    // The claim walks each endpoint's due deliveries in order.
    { name: "webhook_deliveries_due_idx", properties: ["endpoint_id", "next_attempt_at"], where: "status = 'pending'" },
    // Attempts in flight per endpoint (the per-endpoint bound).
    { name: "webhook_deliveries_leased_idx", properties: ["endpoint_id", "claimed_until"], where: "claimed_until is not null" },
    // The dashboard's warning: a merchant's failed or retrying deliveries, latest attempt first (few, so a small index).
    {
      name: "webhook_deliveries_failing_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "last_attempt_at", sort: "desc" }],
      where: "status = 'failed' or (status = 'pending' and attempt_count > 0)",
    },
    // Listing and replaying an endpoint's deliveries, newest first.
    { name: "webhook_deliveries_endpoint_idx", columns: [{ name: "endpoint_id" }, { name: "created_at", sort: "desc" }] },
  ],
});
