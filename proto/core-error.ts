// A failed core call, as every client of the core sees it. Its own module so that code which only
// catches it (the CLI's commands, the facade's error map) does not load the gRPC client.
import type { ErrorCode } from "./error-catalog.ts";

/** A failed core call: the catalog code, and whether a core answered with it (else the call never got an answer). */
export class CoreError extends Error {
  override name = "CoreError";
  readonly code: ErrorCode;
  readonly fromCore: boolean;
  /** rate_limited only: whole seconds until the core admits another attempt. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, fromCore: boolean, retryAfterSeconds?: number) {
    super(message);
    this.code = code;
    this.fromCore = fromCore;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
