import type { ErrorCode } from "../../proto/error-catalog.ts";

/** Spec §7: the one place that says which HTTP status each catalog code answers with. */
export const HTTP_STATUS = {
  unauthorized: 401,
  validation_error: 400,
  idempotency_key_required: 400,
  idempotency_key_reused: 409,
  amount_below_minimum: 400,
  amount_above_maximum: 400,
  amount_required: 400,
  currency_not_supported: 400,
  method_not_supported: 400,
  unknown_payment: 404,
  unknown_payment_link: 404,
  payment_not_payable: 409,
  payment_link_not_payable: 409,
  payment_not_refundable: 400,
  refund_amount_exceeds_remaining: 400,
  rate_limited: 429,
  processor_unavailable: 503,
  internal_error: 500,
} as const satisfies Record<ErrorCode, number>;
