import { defineEntity, p } from "@mikro-orm/core";

/**
 * The relay's queue: one row per outbox event not yet published to JetStream, written in the same
 * statement as the event (domain/outbox.ts) and deleted once JetStream has acknowledged it. Apart
 * from the event store so the store is written once: leasing and completing an event touch this
 * small row, not the event's (a completion that set a column of the event, as `published_at` did,
 * rewrote the whole ~1 KB row and all six of its index entries). No foreign key: the purge never
 * takes an event that is still here (jobs/purge-events.ts), and a key would cost a lookup per write.
 */
export const OutboxPending = defineEntity({
  name: "OutboxPending",
  tableName: "outbox_pending",
  properties: {
    // The event's outbox_events.seq: the relay publishes in this order.
    seq: p.bigint("string").primary().autoincrement(false),
    claimed_until: p.datetime(3).nullable(),
  },
});
