import { db } from "../db/orm.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { handleClaimed, type ClaimPolicy, type Tally, type WorkQueue } from "./claim.ts";

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
  return handleClaimed(deps, expiredIdempotencyKeys, policy, async (tx, keys) => {
    await db(tx)
      .deleteFrom("idempotency_keys")
      .where((eb) =>
        eb(
          eb.refTuple("scope", "key"),
          "in",
          keys.map((k) => eb.tuple(k.scope, k.key)),
        ),
      )
      .execute();
    return { value: { purged: keys.length }, events: [] };
  });
}
