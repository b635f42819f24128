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

export interface IdempotentResult {
  /** The original response body, verbatim on a replay. */
  response: string;
  replayed: boolean;
}

export interface KeyClaim {
  key: string;
  fingerprint: string;
  resourceId: string;
  response: string;
  now: Date;
  ttlMs: number;
}

/**
 * `insert … returning scope` claiming `claim.key` in the scope each row of
 * `scopes` yields (a CTE with one column `scope`). It returns a row only when
 * this request won the key: a key in flight in another transaction makes it
 * wait for that transaction (then it returns nothing, or wins if that one
 * rolled back); an expired key is reclaimed. Guard the resource's insert on it
 * in the same statement so exactly one resource exists per key.
 */
export function claimKeySql(scopes: string, claim: KeyClaim) {
  const expiresAt = new Date(claim.now.getTime() + claim.ttlMs);
  return sql`
    insert into idempotency_keys (scope, key, fingerprint, resource_id, response, created_at, expires_at)
    select scope, ${claim.key}, ${claim.fingerprint}, ${claim.resourceId}, ${claim.response}, ${claim.now}::timestamptz, ${expiresAt}::timestamptz
    from ${sql.table(scopes)}
    on conflict (scope, key) do update set
      fingerprint = excluded.fingerprint, resource_id = excluded.resource_id, response = excluded.response,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    where idempotency_keys.expires_at <= ${claim.now}::timestamptz
    returning scope`;
}

/** The key was taken by an earlier request: replay its response, or refuse a different request. */
export async function replayOrConflict(em: EntityManager, scope: string, key: string, fingerprint: string): Promise<IdempotentResult> {
  const existing = await db(em)
    .selectFrom("idempotency_keys")
    .select(["fingerprint", "response"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .executeTakeFirstOrThrow();
  if (existing.fingerprint !== fingerprint) {
    fail("idempotency_key_reused", "This Idempotency-Key was already used for a different request.");
  }
  return { response: existing.response, replayed: true };
}

/** Deletes expired keys in bounded batches so the purge never holds long locks. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager, now: Date, batch = 1_000): Promise<number> {
  const result = await sql`
    delete from idempotency_keys
    where ctid = any(array(select ctid from idempotency_keys where expires_at <= ${now} limit ${batch}))
  `.execute(db(em));
  return Number(result.numAffectedRows ?? 0n);
}
