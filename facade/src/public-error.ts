import type { CoreError } from "../../proto/core-error.ts";
import type { ErrorCode } from "../../proto/error-catalog.ts";

/** An error answered to the client with a catalog code and a safe message. */
export class PublicError extends Error {
  readonly code: ErrorCode;
  /** Set only where the route, not the catalog, decides the status (unknown route, wrong method). */
  readonly status: number | undefined;
  /** Sent as Retry-After (rate_limited). */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, status?: number, retryAfterSeconds?: number) {
    super(message);
    this.name = "PublicError";
    this.code = code;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * What the client sees of a failed core call: the core's own answer as it is, "unavailable" when no
 * core answered (never the address or gRPC detail); undefined for anything else, an unexpected error.
 */
export function publicErrorOf(error: CoreError): PublicError | undefined {
  if (error.fromCore) return new PublicError(error.code, error.message, undefined, error.retryAfterSeconds);
  if (error.code === "processor_unavailable") return new PublicError("processor_unavailable", "The service is temporarily unavailable; retry later.");
  return undefined;
}
