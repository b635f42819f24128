import { createHash } from "node:crypto";
import { sql } from "kysely";
import { db, type EntityManager } from "../db/orm.ts";
import { canonicalJson } from "./canonical-json.ts";
import { fail } from "./errors.ts";

export const IDEMPOTENCY_KEY_MIN_LENGTH = 8;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Spec §7: checked before anything else, authentication included. */
export function requireIdempotencyKey(key: string | undefined): string {
  if (key === undefined || key.length < IDEMPOTENCY_KEY_MIN_LENGTH) {
    fail("idempotency_key_required", `An Idempotency-Key header of at least ${IDEMPOTENCY_KEY_MIN_LENGTH} characters is required.`);
  }
  return key as string;
}

/** Checked in the body-shape step, after authentication. */
export function checkIdempotencyKeyShape(key: string): void {
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
    fail("validation_error", `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`);
  }
}

export function requestFingerprint(route: string, body: unknown): string {
  return createHash("sha256").update(canonicalJson({ route, body })).digest("hex");
}

export interface IdempotentClaim {
  scope: string;
  key: string;
  fingerprint: string;
  resourceId: string;
  /** The response body to store and to replay verbatim. */
  response: string;
  now: Date;
  ttlMs: number;
}

export interface IdempotentResult {
  response: string;
  replayed: boolean;
}

/**
 * Claims the key and persists the resource in one transaction. A concurrent
 * request with the same key blocks on the key's unique index until the first
 * one commits (then replays it) or rolls back (then creates it itself), so
 * exactly one resource is ever created. An expired key is reclaimed.
 */
export async function createOnce(em: EntityManager, claim: IdempotentClaim, persist: (trx: ReturnType<typeof db>) => Promise<void>): Promise<IdempotentResult> {
  return em.transactional(async (tx) => {
    const trx = db(tx);
    const expiresAt = new Date(claim.now.getTime() + claim.ttlMs);
    const won = await trx
      .insertInto("idempotency_keys")
      .values({
        scope: claim.scope, key: claim.key, fingerprint: claim.fingerprint, resource_id: claim.resourceId,
        response: claim.response, created_at: claim.now, expires_at: expiresAt,
      })
      .onConflict((oc) =>
        oc.columns(["scope", "key"])
          .doUpdateSet((eb) => ({
            fingerprint: eb.ref("excluded.fingerprint"),
            resource_id: eb.ref("excluded.resource_id"),
            response: eb.ref("excluded.response"),
            created_at: eb.ref("excluded.created_at"),
            expires_at: eb.ref("excluded.expires_at"),
          }))
          .where("idempotency_keys.expires_at", "<=", claim.now))
      .returning("scope")
      .executeTakeFirst();
    if (won) {
      await persist(trx);
      return { response: claim.response, replayed: false };
    }
    const existing = await trx
      .selectFrom("idempotency_keys")
      .select(["fingerprint", "response"])
      .where("scope", "=", claim.scope)
      .where("key", "=", claim.key)
      .executeTakeFirstOrThrow();
    if (existing.fingerprint !== claim.fingerprint) {
      fail("idempotency_key_reused", "This Idempotency-Key was already used for a different request.");
    }
    return { response: existing.response, replayed: true };
  });
}

/** Deletes expired keys in bounded batches so the purge never holds long locks. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager, now: Date, batch = 1_000): Promise<number> {
  const result = await sql`
    delete from idempotency_keys
    where ctid = any(array(select ctid from idempotency_keys where expires_at <= ${now} limit ${batch}))
  `.execute(db(em));
  return Number(result.numAffectedRows ?? 0n);
}
