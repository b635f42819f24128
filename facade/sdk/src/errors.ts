/** The closed error catalog of the API (spec §7): what `PaytamiError.code` can be. */
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

/** The API answered with an error: `code` is the catalog's (program logic reads it), `message` is for people. */
export class PaytamiError extends Error {
  override name = "PaytamiError";
  readonly code: ErrorCode;
  /** The HTTP status (400, 401, 404, 409, 429, 500, 503). */
  readonly status: number;
  /** The response's Request-Id: quote it to support. */
  readonly requestId: string | undefined;
  /** On 429 and 503: the seconds the server asked to wait (Retry-After), if it said. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, status: number, requestId: string | undefined, retryAfterSeconds?: number) {
    super(message);
    this.code = code;
    this.status = status;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * No answer from the API after every retry (connection refused or cut, DNS, the timeout). A create
 * may or may not have happened: call it again with the same `idempotencyKey` to find out safely.
 */
export class PaytamiConnectionError extends Error {
  override name = "PaytamiConnectionError";
  /** The Idempotency-Key the request carried, to retry it with. */
  readonly idempotencyKey: string | undefined;
  constructor(message: string, idempotencyKey: string | undefined, cause: unknown) {
    super(message, { cause });
    this.idempotencyKey = idempotencyKey;
  }
}

/** `webhooks.constructEvent` refused a delivery: the signature, the timestamp or the body did not check out. */
export class PaytamiSignatureError extends Error {
  override name = "PaytamiSignatureError";
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
