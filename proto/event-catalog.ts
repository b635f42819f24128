// The event catalog of the public contract (spec 6.2), shared by the core (outbox, endpoint
// subscriptions, GET /v1/events), the dispatcher and the CLI. Adding an event type here is what
// makes it subscribable; the spec's list is closed like the error catalog.
export const EVENT_TYPES = [
  "payment.succeeded",
  "payment.failed",
  "payment.canceled",
  "refund.succeeded",
  "chargeback.opened",
  "chargeback.won",
  "payout.completed",
  "payout.failed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && (EVENT_TYPES as readonly string[]).includes(value);
}
