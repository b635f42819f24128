import type { CoreError } from "../../proto/core-client.ts";
import type { ErrorCode } from "../../proto/error-catalog.ts";

/** An error answered to the client with a catalog code and a safe message. */
export class PublicError extends Error {
  readonly code: ErrorCode;
  /** Set only where the route, not the catalog, decides the status (unknown route, wrong method). */
  readonly status: number | undefined;
  constructor(code: ErrorCode, message: string, status?: number) {
    super(message);
    this.name = "PublicError";
    this.code = code;
    this.status = status;
  }
}

/**
 * What the client sees of a failed core call: the core's own answer as it is, "unavailable" when no
 * core answered (never the address or gRPC detail); undefined for anything else, an unexpected error.
 */
export function publicErrorOf(error: CoreError): PublicError | undefined {
  if (error.fromCore) return new PublicError(error.code, error.message);
  if (error.code === "processor_unavailable") return new PublicError("processor_unavailable", "The service is temporarily unavailable; retry later.");
  return undefined;
}
