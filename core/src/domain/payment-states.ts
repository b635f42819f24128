import type { ErrorCode } from "../../../proto/error-catalog.ts";
import { PAYMENT_STATUSES, type PaymentStatus } from "../../../proto/payment-statuses.ts";
import { DomainError } from "./errors.ts";

export { PAYMENT_STATUSES, type PaymentStatus };

export const PAYABLE_STATUSES = ["created", "processing", "authorized"] as const satisfies readonly PaymentStatus[];
const CAPTURED_OR_LATER = [
  "captured",
  "pending_settlement",
  "settled_to_paytami",
  "available_to_merchant",
  "partially_refunded",
] as const satisfies readonly PaymentStatus[];

export type PaymentEventType = "payment.succeeded" | "payment.failed" | "payment.canceled" | "refund.succeeded" | "chargeback.opened" | "chargeback.won";

/** Columns a transition stamps with the time it happened. */
export type TransitionStamp =
  | "processing_at"
  | "authorized_at"
  | "captured_at"
  | "failed_at"
  | "canceled_at"
  | "expired_at"
  | "pending_settlement_at"
  | "settled_to_paytami_at"
  | "available_to_merchant_at"
  | "refunded_at"
  | "chargeback_opened_at"
  | "chargeback_won_at";

interface Transition {
  from: readonly PaymentStatus[];
  /** "previous" restores the state the payment had before its chargeback. */
  to: PaymentStatus | "previous";
  stamp: TransitionStamp;
  event: PaymentEventType | null;
  rejectWith: ErrorCode;
}

/** DESIGN §4 "Payment states": the only place that says which move is legal. */
export const TRANSITIONS = {
  startProcessing: { from: ["created"], to: "processing", stamp: "processing_at", event: null, rejectWith: "payment_not_payable" },
  authorize: { from: ["created", "processing"], to: "authorized", stamp: "authorized_at", event: null, rejectWith: "payment_not_payable" },
  capture: { from: ["authorized", "processing"], to: "captured", stamp: "captured_at", event: "payment.succeeded", rejectWith: "payment_not_payable" },
  fail: { from: PAYABLE_STATUSES, to: "failed", stamp: "failed_at", event: "payment.failed", rejectWith: "payment_not_payable" },
  cancel: { from: PAYABLE_STATUSES, to: "canceled", stamp: "canceled_at", event: "payment.canceled", rejectWith: "payment_not_payable" },
  expire: { from: PAYABLE_STATUSES, to: "expired", stamp: "expired_at", event: null, rejectWith: "payment_not_payable" },
  batchForSettlement: { from: ["captured"], to: "pending_settlement", stamp: "pending_settlement_at", event: null, rejectWith: "payment_not_payable" },
  receiveFunds: { from: ["pending_settlement"], to: "settled_to_paytami", stamp: "settled_to_paytami_at", event: null, rejectWith: "payment_not_payable" },
  releaseFunds: {
    from: ["settled_to_paytami"],
    to: "available_to_merchant",
    stamp: "available_to_merchant_at",
    event: null,
    rejectWith: "payment_not_payable",
  },
  refundPart: { from: CAPTURED_OR_LATER, to: "partially_refunded", stamp: "refunded_at", event: "refund.succeeded", rejectWith: "payment_not_refundable" },
  refundRest: { from: CAPTURED_OR_LATER, to: "refunded", stamp: "refunded_at", event: "refund.succeeded", rejectWith: "payment_not_refundable" },
  openChargeback: { from: CAPTURED_OR_LATER, to: "chargeback", stamp: "chargeback_opened_at", event: "chargeback.opened", rejectWith: "payment_not_payable" },
  winChargeback: { from: ["chargeback"], to: "previous", stamp: "chargeback_won_at", event: "chargeback.won", rejectWith: "payment_not_payable" },
} as const satisfies Record<string, Transition>;

export type PaymentOperation = keyof typeof TRANSITIONS;

/** The operations that move a payment to a state of their own (all but winChargeback, which restores the one it had). */
export type DirectOperation = { [K in PaymentOperation]: (typeof TRANSITIONS)[K]["to"] extends PaymentStatus ? K : never }[PaymentOperation];

/** The part of a payment a transition reads and writes. */
export interface PaymentStateFields {
  status: PaymentStatus;
  status_before_chargeback: PaymentStatus | null;
}

export interface TransitionResult {
  status: PaymentStatus;
  status_before_chargeback: PaymentStatus | null;
  stamp: TransitionStamp;
  at: Date;
  event: PaymentEventType | null;
}

export function isPaymentStatus(text: string): text is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(text);
}

export function isPayable(status: PaymentStatus): boolean {
  return (PAYABLE_STATUSES as readonly PaymentStatus[]).includes(status);
}

export function canApply(operation: PaymentOperation, status: PaymentStatus): boolean {
  return (TRANSITIONS[operation].from as readonly PaymentStatus[]).includes(status);
}

function apply(operation: PaymentOperation, payment: PaymentStateFields, at: Date): TransitionResult {
  const rule: Transition = TRANSITIONS[operation];
  if (!rule.from.includes(payment.status)) {
    throw new DomainError(rule.rejectWith, `Cannot ${operation} a payment in status ${payment.status}; it must be ${rule.from.join(" or ")}.`);
  }
  if (rule.to === "previous") {
    return { status: payment.status_before_chargeback ?? "captured", status_before_chargeback: null, stamp: rule.stamp, at, event: rule.event };
  }
  return {
    status: rule.to,
    status_before_chargeback: rule.to === "chargeback" ? payment.status : payment.status_before_chargeback,
    stamp: rule.stamp,
    at,
    event: rule.event,
  };
}

// `at` is the operation's clock (`deps.now()`), never read here: a transition stamps the time it is given.
export const startProcessing = (p: PaymentStateFields, at: Date) => apply("startProcessing", p, at);
export const authorize = (p: PaymentStateFields, at: Date) => apply("authorize", p, at);
export const capture = (p: PaymentStateFields, at: Date) => apply("capture", p, at);
export const failPayment = (p: PaymentStateFields, at: Date) => apply("fail", p, at);
export const cancel = (p: PaymentStateFields, at: Date) => apply("cancel", p, at);
export const expire = (p: PaymentStateFields, at: Date) => apply("expire", p, at);
export const batchForSettlement = (p: PaymentStateFields, at: Date) => apply("batchForSettlement", p, at);
export const receiveFunds = (p: PaymentStateFields, at: Date) => apply("receiveFunds", p, at);
export const releaseFunds = (p: PaymentStateFields, at: Date) => apply("releaseFunds", p, at);
export const refundPart = (p: PaymentStateFields, at: Date) => apply("refundPart", p, at);
export const refundRest = (p: PaymentStateFields, at: Date) => apply("refundRest", p, at);
export const openChargeback = (p: PaymentStateFields, at: Date) => apply("openChargeback", p, at);
export const winChargeback = (p: PaymentStateFields, at: Date) => apply("winChargeback", p, at);

/** Checkout-session reason for a resolved payment (DESIGN §4). */
export function notPayableReason(status: PaymentStatus): "failed" | "canceled" | "expired" | "already_paid" | null {
  if (isPayable(status)) return null;
  if (status === "failed" || status === "canceled" || status === "expired") return status;
  return "already_paid";
}
