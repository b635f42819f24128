// The events one payment raised (payment.*, and the refund.* and chargeback.* of its refunds and
// disputes), read from the event store (outbox_events) through the payment each envelope's data names.
import { sql } from "kysely";
import { safeText } from "../../../proto/response-excerpt.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { Tx } from "./unit-of-work.ts";

/**
 * The payment an event is about: a payment event's data is the payment (its `id`), a refund's or a
 * chargeback's names it in `payment_id`. The same expression is indexed (outbox_events_payment_idx),
 * so it must stay written exactly as the entity's index writes it.
 */
export const EVENT_PAYMENT_ID = sql<string>`coalesce(envelope -> 'data' ->> 'payment_id', envelope -> 'data' ->> 'id')`;

export interface PaymentEventDelivery {
  id: string;
  endpoint_id: string;
  status: string;
  attempt_count: number;
  last_http_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

export interface PaymentEvent {
  id: string;
  type: string;
  created_at: string;
  deliveries: PaymentEventDelivery[];
}

/** Oldest first, each with its deliveries (one per subscribed endpoint), for the caller's merchant and mode only. */
export async function paymentEvents(tx: Tx, caller: MerchantCaller, paymentId: string): Promise<PaymentEvent[]> {
  const events = await db(tx)
    .selectFrom("outbox_events")
    .select(["id", "type", "created_at"])
    // Raw: a JSON path expression, matched to its index's text (EVENT_PAYMENT_ID).
    .where(EVENT_PAYMENT_ID, "=", paymentId)
    .where("merchant_id", "=", caller.merchantId)
    .where("mode", "=", caller.mode)
    .orderBy("created_at")
    .orderBy("seq")
    .execute();
  if (events.length === 0) return [];
  const deliveries = await db(tx)
    .selectFrom("webhook_deliveries")
    .select(["id", "event_id", "endpoint_id", "status", "attempt_count", "last_http_status", "last_error", "last_attempt_at", "next_attempt_at"])
    .where(
      "event_id",
      "in",
      events.map((e) => e.id),
    )
    .where("merchant_id", "=", caller.merchantId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    deliveries: deliveries
      .filter((d) => d.event_id === event.id)
      .map(({ event_id: _event, ...d }) => ({
        ...d,
        // A receiver's words: cleaned of control characters, as the delivery log shows them.
        last_error: d.last_error === null ? null : safeText(d.last_error),
        last_attempt_at: d.last_attempt_at?.toISOString() ?? null,
        next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
      })),
  }));
}
