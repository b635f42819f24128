// The closed error catalog of the public contract (spec §7). The core attaches
// one of these codes to every error it returns (gRPC trailer
// `paytami-error-code`); the facade maps each to its HTTP status.
export const ERROR_CODES = [
  "unauthorized",
  "validation_error",
  "idempotency_key_required",
  "idempotency_key_reused",
  "amount_below_minimum",
  "amount_above_maximum",
  "amount_required",
  "currency_not_supported",
  "method_not_supported",
  "unknown_payment",
  "unknown_payment_link",
  "payment_not_payable",
  "payment_link_not_payable",
  "payment_not_refundable",
  "refund_amount_exceeds_remaining",
  "rate_limited",
  "processor_unavailable",
  "internal_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const ERROR_CODE_METADATA_KEY = "paytami-error-code";
export const INTERNAL_TOKEN_METADATA_KEY = "x-paytami-internal-token";
export const REQUEST_ID_METADATA_KEY = "x-request-id";
/** On a rate_limited error: whole seconds until the limit admits the next attempt (the facade's Retry-After). */
export const RETRY_AFTER_METADATA_KEY = "paytami-retry-after";

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
