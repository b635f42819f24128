// A merchant API key's digest, apart from the request-log contract (request-log.ts): the facade's
// request-log publisher thread needs only this, and importing the contract's zod schemas would
// load zod into that thread's isolate too (~11 MB more resident, for nothing it uses).
import { createHash } from "node:crypto";

/**
 * The facade never learns a key's id (the core authenticates), so it sends the key's SHA-256, the
 * digest the core stores in api_keys.digest, and the core's writer turns it into the key id, the
 * merchant and the mode. The digest of a 190-bit random key cannot be turned back into the key.
 */
export function apiKeyDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
