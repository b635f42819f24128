import { createHash } from "node:crypto";
import { sql, type Expression, type QueryCreator, type RawBuilder } from "kysely";
import { db, type DB, type EntityManager } from "../db/orm.ts";
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

export function isIdempotencyKeyShapeValid(key: string): boolean {
  return key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && /^[\x20-\x7e]+$/.test(key);
}

/** Checked in the body-shape step, after authentication. */
export function checkIdempotencyKeyShape(key: string): void {
  if (!isIdempotencyKeyShapeValid(key)) {
    fail("validation_error", `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`);
  }
}

/** `operation` names what is asked (not a transport route), so every caller of one operation shares its keys. */
export function requestFingerprint(operation: string, body: unknown): string {
  return createHash("sha256").update(canonicalJson({ operation, body })).digest("hex");
}

/**
 * An idempotent operation's answer: what this request made, or on a replay what the first request
 * answered (its stored response, parsed here and nowhere else, so a replay is byte-identical).
 */
export interface IdempotentResult<T> {
  value: T;
  replayed: boolean;
}

export interface KeyClaim {
  key: string;
  fingerprint: string;
  resourceId: string;
  response: string;
  now: Date;
  /** When the key is released (now + IDEMPOTENCY_TTL). */
  expiresAt: Date;
}

/**
 * `insert … returning scope` claiming `claim.key` in the scope each row of the
 * CTE `scopes` yields (a column `scope`). It returns a row only when this
 * request won the key: a key in flight in another transaction makes it wait
 * for that transaction (then it returns nothing, or wins if that one rolled
 * back); an expired key is reclaimed. Guard the resource's insert on it in the
 * same statement so exactly one resource exists per key.
 */
export function claimKey<N extends string>(qc: QueryCreator<DB & Record<N, { scope: string }>>, scopes: N, claim: KeyClaim) {
  const { expiresAt } = claim;
  const q = qc as unknown as QueryCreator<DB & { scopes: { scope: string } }>;
  return q
    .insertInto("idempotency_keys")
    .columns(["scope", "key", "fingerprint", "resource_id", "response", "created_at", "expires_at"])
    .expression((eb) =>
      // The timestamps as typed fragments: a bound value in a select list is text unless its type is named.
      eb
        .selectFrom(sql.table(scopes).as("scopes") as unknown as "scopes")
        .select([
          "scopes.scope",
          eb.val(claim.key).as("key"),
          eb.val(claim.fingerprint).as("fingerprint"),
          eb.val(claim.resourceId).as("resource_id"),
          eb.val(claim.response).as("response"),
          sql<Date>`${claim.now}::timestamptz`.as("created_at"),
          sql<Date>`${expiresAt}::timestamptz`.as("expires_at"),
        ]),
    )
    .onConflict((oc) =>
      oc
        .columns(["scope", "key"])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref("excluded.fingerprint"),
          resource_id: eb.ref("excluded.resource_id"),
          response: eb.ref("excluded.response"),
          created_at: eb.ref("excluded.created_at"),
          expires_at: eb.ref("excluded.expires_at"),
        }))
        .where("idempotency_keys.expires_at", "<=", claim.now),
    )
    .returning("idempotency_keys.scope");
}

/** The idempotency scope of a merchant's own requests, whichever credential they come with (create-charge/owners.ts builds the same text in SQL). */
export function merchantScope(caller: { merchantId: string; mode: string }): string {
  return `${caller.merchantId}:${caller.mode}`;
}

/**
 * merchantScope's text built in SQL from two columns or values, for statements that resolve the
 * merchant themselves. Its ':' is inline SQL (a PreparedStatement binds only its values).
 */
export function merchantScopeSql(merchantId: Expression<string>, mode: Expression<string>): RawBuilder<string> {
  return sql<string>`${merchantId} || ':' || ${mode}`;
}

/**
 * Claims `claim.key` in one scope with a statement of its own, for operations whose resource is not
 * inserted in the same statement; true when this request won the key (a concurrent holder is waited for).
 */
export async function claimKeyIn(em: EntityManager, scope: string, claim: KeyClaim): Promise<boolean> {
  const claimed = await db(em)
    // A typed fragment: a bound value in a select list needs its type named.
    .with("scopes", (qc) => qc.selectNoFrom(sql<string>`${scope}::text`.as("scope")))
    .with("claim", (qc) => claimKey(qc, "scopes", claim))
    .selectFrom("claim")
    .select("claim.scope")
    .execute();
  return claimed.length > 0;
}

/**
 * The stored answer to the request that holds the key, or idempotency_key_reused. `T` is what that
 * request's operation answers: the fingerprint names the operation, so a key's stored response was
 * made by the same one.
 */
function answer<T>(existing: { fingerprint: string; response: string }, fingerprint: string): IdempotentResult<T> {
  if (existing.fingerprint !== fingerprint) {
    fail("idempotency_key_reused", "This Idempotency-Key was already used for a different request.");
  }
  return { value: JSON.parse(existing.response) as T, replayed: true };
}

/** The key was taken by an earlier request: replay its response, or refuse a different request. */
export async function replayOrConflict<T>(em: EntityManager, scope: string, key: string, fingerprint: string): Promise<IdempotentResult<T>> {
  const existing = await db(em)
    .selectFrom("idempotency_keys")
    .select(["fingerprint", "response"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .executeTakeFirstOrThrow();
  return answer<T>(existing, fingerprint);
}

/** The answer to an earlier request that still holds this key, if one does (its replay, or idempotency_key_reused). */
export async function earlierAnswer<T>(
  em: EntityManager,
  scope: string,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<IdempotentResult<T> | undefined> {
  const existing = await db(em)
    .selectFrom("idempotency_keys")
    .select(["fingerprint", "response"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return existing ? answer<T>(existing, fingerprint) : undefined;
}
