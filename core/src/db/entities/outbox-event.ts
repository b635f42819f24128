import { defineEntity, p } from "@mikro-orm/core";

/**
 * Events leave the core only through this table, written in the same
 * transaction as the change; the relay publishes them to JetStream.
 */
export const OutboxEvent = defineEntity({
  name: "OutboxEvent",
  tableName: "outbox_events",
  properties: {
    seq: p.bigint("string").primary().autoincrement(),
    id: p.string().unique(),
    merchant_id: p.string(),
    mode: p.string(),
    type: p.string(),
    envelope: p.json<Record<string, unknown>>(),
    created_at: p.datetime(3),
    claimed_until: p.datetime(3).nullable(),
    published_at: p.datetime(3).nullable(),
  },
});
