import type { ErrorCode } from "../../../proto/error-catalog.ts";

/** An error the client can act on: it carries a catalog code and a safe message. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  /** rate_limited only: whole seconds until another attempt is admitted. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = "DomainError";
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const fail = (code: ErrorCode, message: string): never => {
  throw new DomainError(code, message);
};
