import { createHash, timingSafeEqual } from "node:crypto";
import { OPERATOR, type OperatorCaller } from "./caller.ts";
import { DomainError } from "./errors.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * The operator caller for the internal token, whichever transport carried it
 * (gRPC metadata, the tRPC Authorization header, /metrics); anything else is
 * `unauthorized`. Compared in constant time, over digests so lengths leak nothing.
 */
export function resolveOperator(internalToken: string, presented: string | undefined): OperatorCaller {
  if (!timingSafeEqual(digest(presented ?? ""), digest(internalToken)) || !presented) {
    throw new DomainError("unauthorized", "A valid internal token is required.");
  }
  return OPERATOR;
}
