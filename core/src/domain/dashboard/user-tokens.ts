import type { CoreConfig } from "../../config.ts";
import { db } from "../../db/orm.ts";
import { DomainError } from "../errors.ts";
import type { Tx } from "../unit-of-work.ts";
import { digestToken, isTokenShaped, newSecretToken } from "./secret-token.ts";

// Invites (DASHBOARD_INVITE_TTL, 72 h) and password resets (DASHBOARD_RESET_TTL, 1 h): one-use tokens
// handed out as a URL on PUBLIC_BASE_URL and stored as their digest.

export type TokenPurpose = "invite" | "reset";

const PATHS: Record<TokenPurpose, string> = { invite: "/dashboard/invite/", reset: "/dashboard/reset/" };

/** A new one-use token for `userId`; its URL is shown once and kept nowhere. */
export async function issueUserToken(
  config: Pick<CoreConfig, "dashboard" | "publicBaseUrl">,
  tx: Tx,
  purpose: TokenPurpose,
  userId: string,
  merchantId: string | null,
  now: Date,
): Promise<string> {
  const token = newSecretToken();
  const ttl = purpose === "invite" ? config.dashboard.inviteTtlMs : config.dashboard.resetTtlMs;
  await db(tx)
    .insertInto("dashboard_user_tokens")
    .values({
      digest: digestToken(token),
      purpose,
      user_id: userId,
      merchant_id: merchantId,
      created_at: now,
      expires_at: new Date(now.getTime() + ttl),
      used_at: null,
    })
    .execute();
  return `${config.publicBaseUrl}${PATHS[purpose]}${token}`;
}

export const invalidToken = (purpose: TokenPurpose) =>
  new DomainError(
    "unauthorized",
    purpose === "invite" ? "This invite link is not valid any more: ask for a new one." : "This reset link is not valid any more: ask for a new one.",
  );

export interface UsableToken {
  userId: string;
  merchantId: string | null;
}

/** The token's user (and invite's merchant) while it is unused and unexpired; `unauthorized` otherwise. */
export async function findUsableToken(tx: Tx, purpose: TokenPurpose, token: string, now: Date): Promise<UsableToken> {
  if (!isTokenShaped(token)) throw invalidToken(purpose);
  const row = await db(tx)
    .selectFrom("dashboard_user_tokens")
    .select(["user_id", "merchant_id"])
    .where("digest", "=", digestToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  if (!row) throw invalidToken(purpose);
  return { userId: row.user_id, merchantId: row.merchant_id };
}

/** Uses the token up, once: a second use (two tabs, two cores at once) is refused. */
export async function useToken(tx: Tx, purpose: TokenPurpose, token: string, now: Date): Promise<UsableToken> {
  const row = await db(tx)
    .updateTable("dashboard_user_tokens")
    .set({ used_at: now })
    .where("digest", "=", digestToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["user_id", "merchant_id"])
    .executeTakeFirst();
  if (!row) throw invalidToken(purpose);
  return { userId: row.user_id, merchantId: row.merchant_id };
}
