import { defineEntity, p } from "@mikro-orm/core";

/**
 * Events leave the core only through this table, written in the same
 * transaction as the change, with their row in the relay's queue (outbox_pending);
 * the relay publishes them to JetStream. Rows are written once and stay as the
 * event store (GET /v1/events, replay) until EVENT_RETENTION purges them.
 */
export const OutboxEvent = defineEntity({
  name: "OutboxEvent",
  tableName: "outbox_events",
  properties: {
    seq: p.bigint("string").primary().autoincrement().generated("identity"),
    id: p.text(),
    merchant_id: p.text(),
    mode: p.text(),
    type: p.text(),
    // json, not jsonb: jsonb reorders keys, and a delivered event's data keeps the key order of the
    // public object (spec tables), as GET /v1/payments/{id} returns it.
    envelope: p.json<Record<string, unknown>>().columnType("json"),
    created_at: p.datetime(3),
    // The W3C traceparent of the request that raised the event (tracing on), so its trace goes on
    // through the relay, NATS and the dispatcher; null when tracing was off.
    traceparent: p.text().nullable(),
    // A test event (sent from an endpoint's page or POST …/test_event) goes to this one endpoint only,
    // whatever it subscribes to; null for every real event, which goes to every subscribed endpoint.
    endpoint_id: p.text().nullable(),
  },
  uniques: [{ name: "outbox_events_id_key", properties: "id" }],
  indexes: [
    // The table is also the event store behind GET /v1/events: newest first per merchant and mode,
    // with and without a type filter (keyset on created_at, seq like payments).
    {
      name: "outbox_events_list_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }],
    },
    {
      name: "outbox_events_list_type_idx",
      columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "type" }, { name: "created_at", sort: "desc" }, { name: "seq", sort: "desc" }],
    },
    // The events of one payment (the dashboard's payment page): the payment each envelope's data
    // names, written exactly as EVENT_PAYMENT_ID (core/src/domain/payment-events.ts) writes it.
    {
      name: "outbox_events_payment_idx",
      expression:
        "create index \"outbox_events_payment_idx\" on \"outbox_events\" ((coalesce(envelope -> 'data' ->> 'payment_id', envelope -> 'data' ->> 'id')))",
    },
    // The retention purge takes the oldest rows (those still in outbox_pending stay).
    { name: "outbox_events_retention_idx", properties: "created_at" },
  ],
});
