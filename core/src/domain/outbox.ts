import { db, type EntityManager } from "../db/orm.ts";
import { newId } from "./ids.ts";

export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/** An event an operation raised; it leaves the core only once recorded in the outbox. */
export interface RaisedEvent {
  merchantId: string;
  mode: string;
  type: string;
  data: unknown;
  at: Date;
  /** The event id, when the operation must know it (paytami trigger prints it); else one is made. */
  id?: string;
}

/**
 * Records events in the same transaction as the change they describe; the
 * outbox relay publishes them afterwards, so a crash can never publish an
 * event for a change that did not commit, nor lose one that did.
 */
export async function enqueueEvents(tx: EntityManager, events: readonly RaisedEvent[]): Promise<EventEnvelope[]> {
  if (events.length === 0) return [];
  const envelopes = events.map((event): EventEnvelope => ({ id: event.id ?? newId("evt"), type: event.type, created_at: event.at.toISOString(), data: event.data }));
  await db(tx)
    .insertInto("outbox_events")
    .values(events.map((event, i) => ({
      id: envelopes[i]!.id,
      merchant_id: event.merchantId,
      mode: event.mode,
      type: event.type,
      envelope: envelopes[i] as unknown as Record<string, unknown>,
      created_at: event.at,
      claimed_until: null,
      published_at: null,
    })))
    .execute();
  return envelopes;
}
