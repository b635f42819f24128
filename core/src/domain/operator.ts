import { createHash, timingSafeEqual } from "node:crypto";
import { OPERATOR, type OperatorCaller } from "./caller.ts";
import { DomainError } from "./errors.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The operator caller for a presented internal token, or `unauthorized`. */
export type OperatorCheck = (presented: string | undefined) => OperatorCaller;

/**
 * The check of the internal token, whichever transport carried it (gRPC metadata, the tRPC
 * Authorization header, /metrics). Compared in constant time, over digests so lengths leak
 * nothing; the configured token's digest is made once here, not on every call.
 */
export function operatorCheck(internalToken: string): OperatorCheck {
  const expected = digest(internalToken);
  return (presented) => {
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      throw new DomainError("unauthorized", "A valid internal token is required.");
    }
    return OPERATOR;
  };
}
