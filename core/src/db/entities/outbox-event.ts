import { defineEntity, p } from "@mikro-orm/core";

/**
 * Events leave the core only through this table, written in the same
 * transaction as the change; the relay publishes them to JetStream.
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
    envelope: p.json<Record<string, unknown>>(),
    created_at: p.datetime(3),
    claimed_until: p.datetime(3).nullable(),
    published_at: p.datetime(3).nullable(),
  },
  uniques: [{ name: "outbox_events_id_key", properties: "id" }],
  // The relay reads only what is still unpublished, in order.
  indexes: [{ name: "outbox_events_pending_idx", properties: "seq", where: "published_at is null" }],
});
