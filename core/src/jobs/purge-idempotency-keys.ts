import type { CoreDeps } from "../domain/deps.ts";
import type { ClaimPolicy, Tally, WorkQueue } from "./claim.ts";
import { purgeClaimed } from "./purge-claimed.ts";

/** Idempotency keys past their IDEMPOTENCY_TTL (idempotency_keys_expiry_idx). */
export const expiredIdempotencyKeys: WorkQueue<"idempotency_keys", { scope: string; key: string }> = {
  job: "purge_idempotency_keys",
  table: "idempotency_keys",
  due: (rows, now) => rows.select(["scope", "key"]).where("expires_at", "<=", now).orderBy("expires_at"),
};

/**
 * Deletes one claimed batch of expired keys. A key a request is reclaiming
 * right now is locked by that request and skipped; it is no longer expired
 * once that request commits.
 */
export function purgeExpiredIdempotencyKeys(deps: CoreDeps, policy: ClaimPolicy): Promise<Tally> {
  return purgeClaimed(deps, expiredIdempotencyKeys, ["scope", "key"], policy);
}
