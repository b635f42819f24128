import { randomInt } from "node:crypto";
import { LockMode } from "@mikro-orm/core";
import { apiKeyDigest } from "../../../proto/api-key-digest.ts";
import type { Mode } from "../config.ts";
import type { ExpressionBuilder } from "kysely";
import { ApiKey, Merchant } from "../db/entities/index.ts";
import { db, type DB, type EntityManager } from "../db/orm.ts";
import { merchantCaller, type MerchantCaller, type OperatorCaller, type PresentedApiKey, type PresentedCredential } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { newId } from "./ids.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_FORMAT = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

export function generateApiKey(mode: Mode): string {
  let body = "";
  for (let i = 0; i < 32; i++) body += BASE62[randomInt(62)];
  return `sk_${mode}_${body}`;
}

export const unauthorized = () => new DomainError("unauthorized", "Missing, invalid, revoked or expired API key.");

/** Checks the form of an `sk_…` key without touching the database; the transport has taken it out of its header. */
export function presentApiKey(key: string | undefined): PresentedCredential {
  const mode = key === undefined ? undefined : KEY_FORMAT.exec(key)?.[1];
  if (!key || !mode) return { kind: "unreadable" };
  return { kind: "api_key", digest: apiKeyDigest(key), mode: mode as Mode };
}

/** A presented credential that is at least an API key in form, or `unauthorized`. */
export function readableApiKey(credential: PresentedCredential): PresentedApiKey {
  if (credential.kind === "unreadable") throw unauthorized();
  return credential;
}

/** The one definition of a usable key (neither revoked nor past its expiry), for every query that authenticates. */
export function isActiveKey(now: Date) {
  return (eb: ExpressionBuilder<DB, "api_keys">) =>
    eb.and([eb("api_keys.revoked_at", "is", null), eb.or([eb("api_keys.expires_at", "is", null), eb("api_keys.expires_at", ">", now)])]);
}

/** The merchant and mode a presented key acts for, or `unauthorized`. */
export async function resolveApiKey(deps: CoreDeps, tx: Tx, credential: PresentedCredential): Promise<MerchantCaller> {
  const key = readableApiKey(credential);
  const row = await db(tx)
    .selectFrom("api_keys")
    .select(["api_keys.merchant_id", "api_keys.mode"])
    .where("api_keys.digest", "=", key.digest)
    .where("api_keys.mode", "=", key.mode)
    .where(isActiveKey(deps.now()))
    .executeTakeFirst();
  if (!row) throw unauthorized();
  return merchantCaller(row.merchant_id, row.mode as Mode);
}

/** Whom a presented key acts for, and nothing else (AuthenticateRequest): the runner has resolved the key by now. */
export async function authenticate(_deps: CoreDeps, _tx: Tx, caller: MerchantCaller): Promise<MerchantCaller> {
  return caller;
}

export interface IssuedApiKey {
  id: string;
  apiKey: string;
  mode: Mode;
  expiresAt: Date | null;
}

export function parseMode(value: string): Mode {
  if (value !== "test" && value !== "live") fail("validation_error", `mode must be test or live, got "${value}".`);
  return value as Mode;
}

/** Adds a new key to `em`; it is written at the next flush (with the merchant, when one is being created). */
export function insertApiKey(em: EntityManager, merchantId: string, mode: Mode, expiresAt: Date | null, now: Date): IssuedApiKey {
  const apiKey = generateApiKey(mode);
  const key = em.create(ApiKey, {
    id: newId("key"),
    merchant_id: merchantId,
    mode,
    digest: apiKeyDigest(apiKey),
    last4: apiKey.slice(-4),
    created_at: now,
    expires_at: expiresAt,
    revoked_at: null,
    last_used_at: null,
  });
  return { id: key.id, apiKey, mode, expiresAt };
}

/** A key for the merchant and mode the operator names, or (a dashboard session) for its own merchant and mode. */
export async function createApiKey(
  deps: CoreDeps,
  tx: Tx,
  caller: OperatorCaller | MerchantCaller,
  input: { merchantId?: string | undefined; mode?: string | undefined; expiresAt?: string | undefined },
): Promise<Changes<IssuedApiKey>> {
  const merchantId = caller.kind === "merchant" ? caller.merchantId : (input.merchantId ?? "");
  const mode = caller.kind === "merchant" ? caller.mode : parseMode(input.mode ?? "");
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) fail("validation_error", "expires_at must be an ISO 8601 timestamp.");
  }
  const merchant = await tx.findOne(Merchant, merchantId);
  if (!merchant) fail("validation_error", `Unknown merchant ${merchantId}.`);
  const issued = insertApiKey(tx, merchantId, mode, expiresAt, deps.now());
  await tx.flush();
  return withoutEvents(issued);
}

/** A key as the dashboard lists it: never its secret or digest. */
export interface ApiKeyView {
  id: string;
  mode: Mode;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  /** At the time of the read: revoked, past its expiry, or usable. */
  status: "active" | "expired" | "revoked";
}

/** The keys of the caller's merchant and mode, newest first (a merchant has a handful; no pages). */
export async function listApiKeys(deps: CoreDeps, tx: Tx, caller: MerchantCaller): Promise<{ data: ApiKeyView[] }> {
  const rows = await db(tx)
    .selectFrom("api_keys")
    .select(["id", "mode", "last4", "created_at", "last_used_at", "expires_at", "revoked_at"])
    .where("merchant_id", "=", caller.merchantId)
    .where("mode", "=", caller.mode)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const now = deps.now();
  return {
    data: rows.map((row) => ({
      id: row.id,
      mode: row.mode as Mode,
      last4: row.last4,
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at?.toISOString() ?? null,
      expires_at: row.expires_at?.toISOString() ?? null,
      revoked_at: row.revoked_at?.toISOString() ?? null,
      status: row.revoked_at ? "revoked" : row.expires_at && row.expires_at <= now ? "expired" : "active",
    })),
  };
}

/** The key `id` locked for a change, if the caller may see it (a session: its own merchant and mode only). */
async function lockKey(tx: Tx, caller: OperatorCaller | MerchantCaller, id: string) {
  // Row lock: needs the transaction of inTransaction.
  const key = await tx.findOne(ApiKey, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!key || (caller.kind === "merchant" && (key.merchant_id !== caller.merchantId || key.mode !== caller.mode)))
    return fail("validation_error", `Unknown API key ${id}.`);
  return key;
}

/** Revoking twice is fine; the first revocation's time stays. A dashboard session revokes only its own merchant's keys of its mode. */
export async function revokeApiKey(
  deps: CoreDeps,
  tx: Tx,
  caller: OperatorCaller | MerchantCaller,
  id: string,
): Promise<Changes<{ id: string; revoked: true }>> {
  const key = await lockKey(tx, caller, id);
  key.revoked_at ??= deps.now();
  await tx.flush();
  return withoutEvents({ id, revoked: true });
}

/** A rolled key: the old one, now expiring at `expiresAt`, and the new one that replaces it (its secret shown once). */
export interface RolledApiKey {
  id: string;
  expiresAt: Date;
  replacement: IssuedApiKey;
}

/**
 * A new key of the same merchant and mode, and the old one kept working until `expiresInSeconds`
 * from now (0: it stops at once; at most API_KEY_ROLL_MAX), so a deploy can switch over without an
 * outage. One transaction: either both happen or neither. An old key that already expires sooner
 * keeps its sooner expiry; a revoked or expired one cannot be rolled (create a new key instead).
 */
export async function rollApiKey(
  deps: CoreDeps,
  tx: Tx,
  caller: OperatorCaller | MerchantCaller,
  input: { id: string; expiresInSeconds: number },
): Promise<Changes<RolledApiKey>> {
  const maxSeconds = Math.floor(deps.config.apiKeys.rollMaxMs / 1000);
  const seconds = input.expiresInSeconds;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > maxSeconds) {
    fail(
      "validation_error",
      `expires_in_seconds must be a whole number of seconds from 0 (the old key stops now) to ${maxSeconds} (${describeSeconds(maxSeconds)}, API_KEY_ROLL_MAX), got ${String(seconds)}.`,
    );
  }
  const now = deps.now();
  const old = await lockKey(tx, caller, input.id);
  if (old.revoked_at) fail("validation_error", `API key ${old.id} is revoked; create a new key instead of rolling it.`);
  if (old.expires_at && old.expires_at <= now) fail("validation_error", `API key ${old.id} has expired; create a new key instead of rolling it.`);
  const chosen = new Date(now.getTime() + seconds * 1000);
  old.expires_at = old.expires_at && old.expires_at < chosen ? old.expires_at : chosen;
  const replacement = insertApiKey(tx, old.merchant_id, old.mode as Mode, null, now);
  await tx.flush();
  return withoutEvents({ id: old.id, expiresAt: old.expires_at, replacement });
}

function describeSeconds(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} hours`;
  return `${seconds} seconds`;
}
