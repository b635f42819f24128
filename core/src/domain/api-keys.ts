import { createHash, randomInt } from "node:crypto";
import { LockMode } from "@mikro-orm/core";
import type { Mode } from "../config.ts";
import { ApiKey, Merchant } from "../db/entities/index.ts";
import { db, type EntityManager } from "../db/orm.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { newId } from "./ids.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_FORMAT = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

export interface Principal {
  merchantId: string;
  mode: Mode;
  currencies: string[];
  methods: string[];
}

export function generateApiKey(mode: Mode): string {
  let body = "";
  for (let i = 0; i < 32; i++) body += BASE62[randomInt(62)];
  return `sk_${mode}_${body}`;
}

export function digestApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export const unauthorized = () => new DomainError("unauthorized", "Missing, invalid, revoked or expired API key.");

export interface PresentedKey {
  digest: string;
  /** The mode a well-formed key names in its prefix; the stored key always agrees. */
  mode: Mode;
}

/** Checks the form of `Bearer sk_…` without touching the database. */
export function presentedKey(authorization: string | undefined): PresentedKey {
  const key = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  const mode = key === undefined ? undefined : KEY_FORMAT.exec(key)?.[1];
  if (!key || !mode) throw unauthorized();
  return { digest: digestApiKey(key), mode: mode as Mode };
}

/** An active key: neither revoked nor past its expiry. */
export function isActiveKey(row: { revoked_at: Date | null; expires_at: Date | null }, now: Date): boolean {
  return !row.revoked_at && !(row.expires_at && row.expires_at <= now);
}

/** Resolves `Bearer sk_...` to its merchant and mode, or fails with `unauthorized`. */
export async function authenticate(deps: CoreDeps, authorization: string | undefined): Promise<Principal> {
  const key = presentedKey(authorization);
  const row = await db(deps.orm.em.fork())
    .selectFrom("api_keys")
    .innerJoin("merchants", "merchants.id", "api_keys.merchant_id")
    .select(["api_keys.merchant_id", "api_keys.mode", "api_keys.expires_at", "api_keys.revoked_at", "merchants.currencies", "merchants.methods"])
    .where("api_keys.digest", "=", key.digest)
    .where("api_keys.mode", "=", key.mode)
    .executeTakeFirst();
  if (!row || !isActiveKey(row, deps.now())) throw unauthorized();
  return {
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    currencies: row.currencies,
    methods: row.methods,
  };
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
    digest: digestApiKey(apiKey),
    last4: apiKey.slice(-4),
    created_at: now,
    expires_at: expiresAt,
    revoked_at: null,
  });
  return { id: key.id, apiKey, mode, expiresAt };
}

export async function createApiKey(deps: CoreDeps, input: { merchantId: string; mode: string; expiresAt?: string }): Promise<IssuedApiKey> {
  const mode = parseMode(input.mode);
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) fail("validation_error", "expires_at must be an ISO 8601 timestamp.");
  }
  const em = deps.orm.em.fork();
  const merchant = await em.findOne(Merchant, input.merchantId);
  if (!merchant) fail("validation_error", `Unknown merchant ${input.merchantId}.`);
  const issued = insertApiKey(em, input.merchantId, mode, expiresAt, deps.now());
  await em.flush();
  return issued;
}

/** Revoking twice is fine; the first revocation's time stays. */
export async function revokeApiKey(deps: CoreDeps, id: string): Promise<{ id: string; revoked: true }> {
  await deps.orm.em.fork().transactional(async (em) => {
    const key = await em.findOne(ApiKey, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!key) return fail("validation_error", `Unknown API key ${id}.`);
    key.revoked_at ??= deps.now();
  });
  return { id, revoked: true };
}
