import type { ErrorCode } from "../../../proto/error-catalog.ts";

/** Spec §7's meaning of each catalog code, as the document lists them under each response. */
export const ERROR_MEANINGS = {
  unauthorized: "API key missing, malformed, unknown, revoked or expired.",
  validation_error: "The body, query or a header does not have the expected shape.",
  idempotency_key_required: "Idempotency-Key header missing or shorter than 8 characters (checked before anything else).",
  idempotency_key_reused: "The Idempotency-Key already created something with a different request.",
  amount_below_minimum: "Amount below the minimum of the currency or link.",
  amount_above_maximum: "Amount above the maximum of the currency or link.",
  amount_required: "Variable-amount link and no amount given.",
  currency_not_supported: "Currency not enabled for the merchant.",
  method_not_supported: "Payment method not available for the currency or merchant.",
  unknown_payment: "No such payment (or it belongs to another merchant or mode).",
  unknown_payment_link: "No such payment link.",
  payment_not_payable: "The payment accepts no further attempt (paid, failed, canceled or expired).",
  payment_link_not_payable: "The link accepts no payment (expired, inactive or exhausted).",
  payment_not_refundable: "The payment's state does not allow a refund.",
  refund_amount_exceeds_remaining: "The refund exceeds what remains of the payment.",
  rate_limited: "Too many attempts in a short time: wait Retry-After seconds.",
  processor_unavailable: "The service cannot process now (e.g. the card network or a service part is down); retry later.",
  internal_error: "Unexpected error on the service's side.",
} as const satisfies Record<ErrorCode, string>;
