import { createHash, timingSafeEqual } from "node:crypto";
import { OPERATOR, type OperatorCaller } from "./caller.ts";
import { DomainError } from "./errors.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();
// Every gRPC call checks the token: the expected side is hashed once per token, not per call.
let expected: { token: string; digest: Buffer } | undefined;

/**
 * The operator caller for the internal token, whichever transport carried it
 * (gRPC metadata, the tRPC Authorization header, /metrics); anything else is
 * `unauthorized`. Compared in constant time, over digests so lengths leak nothing.
 */
export function resolveOperator(internalToken: string, presented: string | undefined): OperatorCaller {
  if (expected?.token !== internalToken) expected = { token: internalToken, digest: digest(internalToken) };
  if (!timingSafeEqual(digest(presented ?? ""), expected.digest) || !presented) {
    throw new DomainError("unauthorized", "A valid internal token is required.");
  }
  return OPERATOR;
}
