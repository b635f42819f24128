import { createHash } from "node:crypto";
import { sql, type RawBuilder } from "kysely";
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
 * Claims the key and persists the resource in one atomic statement: the
 * resource row is inserted only if this request won the key. A concurrent
 * request with the same key blocks on the key's unique index until the first
 * one commits (then replays it) or rolls back (then creates it itself), so
 * exactly one resource is ever created. An expired key is reclaimed.
 *
 * `insertResource` receives the claim CTE and must insert only when it
 * returned a row (see createPayment).
 */
export async function createOnce(em: EntityManager, claim: IdempotentClaim, insertResource: InsertGuarded): Promise<IdempotentResult> {
  const k = db(em);
  const expiresAt = new Date(claim.now.getTime() + claim.ttlMs);
  const claimed = sql`
    insert into idempotency_keys (scope, key, fingerprint, resource_id, response, created_at, expires_at)
    values (${claim.scope}, ${claim.key}, ${claim.fingerprint}, ${claim.resourceId}, ${claim.response}, ${claim.now}, ${expiresAt})
    on conflict (scope, key) do update set
      fingerprint = excluded.fingerprint, resource_id = excluded.resource_id, response = excluded.response,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    where idempotency_keys.expires_at <= ${claim.now}
    returning 1`;
  const result = await sql<{ created: number }>`
    with claim as (${claimed}), created as (${insertResource}) select count(*)::int as created from created`.execute(k);
  if (result.rows[0]!.created === 1) return { response: claim.response, replayed: false };
  const existing = await k
    .selectFrom("idempotency_keys")
    .select(["fingerprint", "response"])
    .where("scope", "=", claim.scope)
    .where("key", "=", claim.key)
    .executeTakeFirstOrThrow();
  if (existing.fingerprint !== claim.fingerprint) {
    fail("idempotency_key_reused", "This Idempotency-Key was already used for a different request.");
  }
  return { response: existing.response, replayed: true };
}

/** An `insert … select … from claim … returning 1` statement, run only when the key was won. */
export type InsertGuarded = RawBuilder<unknown>;

/** Deletes expired keys in bounded batches so the purge never holds long locks. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager, now: Date, batch = 1_000): Promise<number> {
  const result = await sql`
    delete from idempotency_keys
    where ctid = any(array(select ctid from idempotency_keys where expires_at <= ${now} limit ${batch}))
  `.execute(db(em));
  return Number(result.numAffectedRows ?? 0n);
}
