import { Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { ERROR_CODE_METADATA_KEY, RETRY_AFTER_METADATA_KEY, type ErrorCode } from "../../../proto/error-catalog.ts";
import { isConnectionLoss } from "../db/connection-loss.ts";
import { isPoolSaturated } from "../db/pool-watch.ts";
import { DomainError } from "../domain/errors.ts";

/** gRPC status for each catalog code, so plain gRPC clients get a sensible status too. */
export const GRPC_STATUS = {
  unauthorized: status.UNAUTHENTICATED,
  validation_error: status.INVALID_ARGUMENT,
  idempotency_key_required: status.INVALID_ARGUMENT,
  idempotency_key_reused: status.ALREADY_EXISTS,
  amount_below_minimum: status.INVALID_ARGUMENT,
  amount_above_maximum: status.INVALID_ARGUMENT,
  amount_required: status.INVALID_ARGUMENT,
  currency_not_supported: status.INVALID_ARGUMENT,
  method_not_supported: status.INVALID_ARGUMENT,
  unknown_payment: status.NOT_FOUND,
  unknown_payment_link: status.NOT_FOUND,
  payment_not_payable: status.FAILED_PRECONDITION,
  payment_link_not_payable: status.FAILED_PRECONDITION,
  payment_not_refundable: status.FAILED_PRECONDITION,
  refund_amount_exceeds_remaining: status.FAILED_PRECONDITION,
  rate_limited: status.RESOURCE_EXHAUSTED,
  processor_unavailable: status.UNAVAILABLE,
  internal_error: status.INTERNAL,
} as const satisfies Record<ErrorCode, status>;

/** Domain errors keep their code and message; anything else is an internal_error with no detail. */
export function toServiceError(error: unknown): Partial<ServiceError> {
  const metadata = new Metadata();
  if (error instanceof DomainError) {
    metadata.set(ERROR_CODE_METADATA_KEY, error.code);
    if (error.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER_METADATA_KEY, String(error.retryAfterSeconds));
    return { code: GRPC_STATUS[error.code], details: error.message, metadata };
  }
  if (isPoolSaturated(error)) {
    // Outside the operation runner (which answers this itself, with the configured Retry-After): overload, not a bug.
    metadata.set(ERROR_CODE_METADATA_KEY, "processor_unavailable");
    metadata.set(RETRY_AFTER_METADATA_KEY, "1");
    return { code: status.UNAVAILABLE, details: "The service is overloaded; retry shortly.", metadata };
  }
  if (isConnectionLoss(error)) {
    // Outside the operation runner (which retries or answers this itself): a failover, not a bug (DESIGN §7).
    metadata.set(ERROR_CODE_METADATA_KEY, "processor_unavailable");
    return { code: status.UNAVAILABLE, details: "The service lost its database connection; retry shortly.", metadata };
  }
  metadata.set(ERROR_CODE_METADATA_KEY, "internal_error");
  return { code: status.INTERNAL, details: "Internal error.", metadata };
}
