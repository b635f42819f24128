import type { ErrorCode } from "../../../proto/error-catalog.ts";

/** An error the client can act on: it carries a catalog code and a safe message. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "DomainError";
    this.code = code;
  }
}

export const fail = (code: ErrorCode, message: string): never => {
  throw new DomainError(code, message);
};
