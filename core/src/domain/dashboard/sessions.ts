import type { Mode } from "../../config.ts";
import { db } from "../../db/orm.ts";
import type { MerchantRole, SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { newId } from "../ids.ts";
import type { Tx } from "../unit-of-work.ts";
import { digestToken, isTokenShaped, newSecretToken } from "./secret-token.ts";

// Dashboard sessions (DESIGN §5): an opaque token per sign-in, stored as its digest, for one
// merchant and mode at a time. A session ends DASHBOARD_SESSION_MAX after it began, or once unused
// for DASHBOARD_SESSION_IDLE; last_seen_at is written at most every `touchEveryMs` (a minute), not
// on every request. The role is read from the membership on every request, so a changed role or a
// removal holds at once.

/** A new session's token, given to the facade once (X-Paytami-Session-Set) and never again. */
export interface IssuedSession {
  token: string;
  sessionId: string;
  /** The cookie's lifetime: until the absolute timeout. */
  maxAgeSeconds: number;
}

export interface NewSession {
  userId: string;
  merchantId: string;
  mode: Mode;
  clientIp: string | undefined;
  userAgent: string | undefined;
}

/** Most of a User-Agent anyone needs to recognise their browser in the sessions list. */
const USER_AGENT_MAX = 300;

export async function createSession(deps: CoreDeps, tx: Tx, session: NewSession): Promise<IssuedSession> {
  const token = newSecretToken();
  const now = deps.now();
  const id = newId("ses");
  await db(tx)
    .insertInto("dashboard_sessions")
    .values({
      id,
      digest: digestToken(token),
      user_id: session.userId,
      merchant_id: session.merchantId,
      mode: session.mode,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + deps.config.dashboard.sessionMaxMs),
      client_ip: session.clientIp ?? null,
      user_agent: session.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    })
    .execute();
  return { token, sessionId: id, maxAgeSeconds: Math.floor(deps.config.dashboard.sessionMaxMs / 1000) };
}

/**
 * The caller a presented session token speaks as, or undefined when the token is unknown, its
 * session has ended (it is deleted then) or its user is no longer a member of its merchant.
 */
export async function resolveSession(deps: CoreDeps, tx: Tx, token: string, clientIp: string | undefined): Promise<SessionCaller | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const row = await db(tx)
    .selectFrom("dashboard_sessions as s")
    .leftJoin("memberships as m", (join) => join.onRef("m.user_id", "=", "s.user_id").onRef("m.merchant_id", "=", "s.merchant_id"))
    .select(["s.id", "s.user_id", "s.merchant_id", "s.mode", "s.last_seen_at", "s.expires_at", "m.role"])
    .where("s.digest", "=", digestToken(token))
    .executeTakeFirst();
  if (!row) return undefined;
  const now = deps.now();
  const { sessionIdleMs, touchEveryMs } = deps.config.dashboard;
  if (row.expires_at <= now || now.getTime() - row.last_seen_at.getTime() >= sessionIdleMs || !row.role) {
    await db(tx).deleteFrom("dashboard_sessions").where("id", "=", row.id).execute();
    return undefined;
  }
  if (now.getTime() - row.last_seen_at.getTime() >= touchEveryMs) {
    await db(tx).updateTable("dashboard_sessions").set({ last_seen_at: now }).where("id", "=", row.id).execute();
  }
  return {
    kind: "merchant",
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    via: "session",
    role: row.role as MerchantRole,
    session: { userId: row.user_id, sessionId: row.id, clientIp },
  };
}

/** Ends one session (sign-out). */
export async function endSession(tx: Tx, sessionId: string): Promise<void> {
  await db(tx).deleteFrom("dashboard_sessions").where("id", "=", sessionId).execute();
}

/** Ends every session of a user (a password reset, "sign out everywhere"); returns how many there were. */
export async function endUserSessions(tx: Tx, userId: string, merchantId?: string): Promise<number> {
  let query = db(tx).deleteFrom("dashboard_sessions").where("user_id", "=", userId);
  if (merchantId !== undefined) query = query.where("merchant_id", "=", merchantId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface SessionView {
  id: string;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  client_ip: string | null;
  user_agent: string | null;
}

/** The user's sessions still running, newest first (the Security page). */
export async function listSessions(deps: CoreDeps, tx: Tx, caller: SessionCaller): Promise<{ data: SessionView[] }> {
  const now = deps.now();
  const rows = await db(tx)
    .selectFrom("dashboard_sessions")
    .select(["id", "created_at", "last_seen_at", "expires_at", "client_ip", "user_agent"])
    .where("user_id", "=", caller.session.userId)
    .where("expires_at", ">", now)
    .where("last_seen_at", ">", new Date(now.getTime() - deps.config.dashboard.sessionIdleMs))
    .orderBy("created_at", "desc")
    .execute();
  return {
    data: rows.map((row) => ({
      id: row.id,
      current: row.id === caller.session.sessionId,
      created_at: row.created_at.toISOString(),
      last_seen_at: row.last_seen_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      client_ip: row.client_ip,
      user_agent: row.user_agent,
    })),
  };
}
