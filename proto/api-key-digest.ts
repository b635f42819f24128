// A merchant API key's digest: what the core stores in api_keys.digest and looks a presented key up
// by, and what the facade's request-log recorder sends instead of the key. One definition, so the two
// cannot drift. Apart from the request-log contract (request-log.ts): the facade's publisher thread
// needs only this, and the contract's zod schemas would cost its isolate ~11 MB more resident.
import { createHash } from "node:crypto";

/**
 * A key's SHA-256 (hex). The facade never learns a key's id (the core authenticates), so it sends
 * this, and the core's request-log writer turns it into the key id, the merchant and the mode. The
 * digest of a 190-bit random key cannot be turned back into the key.
 */
export function apiKeyDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
