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
