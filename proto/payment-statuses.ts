// The Payment object's statuses (spec 2.1), in the state table's order: the core's state machine
// (core/src/domain/payment-states.ts) and the dashboard's status filter read this one list.
export const PAYMENT_STATUSES = [
  "created",
  "processing",
  "authorized",
  "captured",
  "pending_settlement",
  "settled_to_paytami",
  "available_to_merchant",
  "partially_refunded",
  "refunded",
  "chargeback",
  "failed",
  "canceled",
  "expired",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
