import { DomainError } from "../errors.ts";

export const REFUND_REASONS = [
  "requested_by_customer",
  "duplicate_charge",
  "product_not_received",
  "product_unacceptable",
  "merchant_error",
  "fraudulent",
  "other",
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
export const DEFAULT_REFUND_REASON: RefundReason = "requested_by_customer";

/** The public Refund object (spec 2.4, keys in its order) plus created_at; also the `data` of refund.succeeded. */
export interface RefundView {
  id: string;
  payment_id: string;
  amount: string;
  currency: string;
  reason: RefundReason;
  status: "succeeded";
  created_at: string;
}

export const REFUND_COLUMNS = ["id", "payment_id", "amount", "currency", "reason", "status", "created_at"] as const;

export interface RefundRow {
  id: string;
  payment_id: string;
  amount: string;
  currency: string;
  reason: string;
  status: string;
  created_at: Date;
}

export function toRefundView(row: RefundRow): RefundView {
  return {
    id: row.id,
    payment_id: row.payment_id,
    amount: String(row.amount),
    currency: row.currency,
    reason: row.reason as RefundReason,
    status: row.status as "succeeded",
    created_at: row.created_at.toISOString(),
  };
}

export const unknownPayment = () => new DomainError("unknown_payment", "No such payment.");
// The catalog has no unknown_refund: a refund id that is not the caller's answers with the nearest code (README).
export const unknownRefund = () => new DomainError("unknown_payment", "No such refund.");
