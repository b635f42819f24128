import { createHash, timingSafeEqual } from "node:crypto";

// Operators and internal services prove who they are with PAYTAMI_INTERNAL_TOKEN, whichever
// transport carries it (gRPC metadata, an HTTP bearer header). Comparing SHA-256 digests keeps the
// comparison constant-time even when the lengths differ, which timingSafeEqual alone refuses.
export function isInternalToken(given: string | undefined, token: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given ?? ""), digest(token));
}
