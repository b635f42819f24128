import type { Db } from "../db/orm.ts";
import { newId } from "./ids.ts";

export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/**
 * Records an event in the same transaction as the change it describes; the
 * outbox relay publishes it afterwards, so a crash can never publish an event
 * for a change that did not commit, nor lose one that did.
 */
export async function enqueueEvent(trx: Db, input: { merchantId: string; mode: string; type: string; data: unknown; at: Date }): Promise<EventEnvelope> {
  const envelope: EventEnvelope = { id: newId("evt"), type: input.type, created_at: input.at.toISOString(), data: input.data };
  await trx
    .insertInto("outbox_events")
    .values({
      id: envelope.id,
      merchant_id: input.merchantId,
      mode: input.mode,
      type: input.type,
      envelope: envelope as unknown as Record<string, unknown>,
      created_at: input.at,
      claimed_until: null,
      published_at: null,
    })
    .execute();
  return envelope;
}
