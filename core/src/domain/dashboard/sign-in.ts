import type { Mode } from "../../config.ts";
import { db } from "../../db/orm.ts";
import type { MerchantRole, ServiceCaller, SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError } from "../errors.ts";
import type { Tx } from "../unit-of-work.ts";
import { recordAudit } from "./audit-log.ts";
import { admitSignIn } from "./login-throttle.ts";
import { me, type MeView } from "./me.ts";
import { passwordMatches } from "./passwords.ts";
import { createSession, endSession, type IssuedSession } from "./sessions.ts";
import { useTotpCode } from "./totp-use.ts";

/** Where a browser speaks from, as the facade forwarded it. */
export interface ClientInfo {
  clientIp?: string | undefined;
  userAgent?: string | undefined;
}

export interface SignInInput extends ClientInfo {
  email: string;
  password: string;
  totp?: string | undefined;
}

/** A signed-in session: its token (for the facade's cookie, never for the page) and what the app shows. */
export interface SignedIn {
  session: IssuedSession;
  me: MeView;
}

/** One answer for an unknown e-mail and a wrong password, so nobody learns who has an account. */
const wrongCredentials = () => new DomainError("unauthorized", "Wrong e-mail or password.");

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Opens a session for a user whose identity is proven: at the merchant they used last (if still a
 * member), else their first; in the mode they used last. Audited as a sign-in.
 */
export async function startSession(deps: CoreDeps, tx: Tx, userId: string, client: ClientInfo, merchantId?: string): Promise<SignedIn> {
  const user = await db(tx)
    .selectFrom("dashboard_users")
    .select(["preferred_merchant_id", "preferred_mode"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const memberships = await db(tx).selectFrom("memberships").select(["merchant_id", "role"]).where("user_id", "=", userId).orderBy("created_at").execute();
  const chosen =
    memberships.find((m) => m.merchant_id === merchantId) ?? memberships.find((m) => m.merchant_id === user.preferred_merchant_id) ?? memberships[0];
  if (!chosen) throw new DomainError("unauthorized", "This account is not a member of any merchant any more.");
  const mode = user.preferred_mode as Mode;
  const session = await createSession(deps, tx, { userId, merchantId: chosen.merchant_id, mode, clientIp: client.clientIp, userAgent: client.userAgent });
  await recordAudit(tx, deps.now(), {
    userId,
    merchantId: chosen.merchant_id,
    mode,
    action: "sign_in",
    objectId: session.sessionId,
    clientIp: client.clientIp,
  });
  const caller: SessionCaller = {
    kind: "merchant",
    merchantId: chosen.merchant_id,
    mode,
    via: "session",
    role: chosen.role as MerchantRole,
    session: { userId, sessionId: session.sessionId, clientIp: client.clientIp },
  };
  return { session, me: await me(deps, tx, caller) };
}

/**
 * dashboard.auth.signIn: DASHBOARD_LOGIN_LIMIT first (counted before the password is checked), then
 * the password (a dummy hash for an unknown e-mail: the same answer in the same time), then the
 * TOTP code when the user has one. Every outcome is audited.
 */
export async function signIn(deps: CoreDeps, tx: Tx, _facade: ServiceCaller<"facade">, input: SignInInput): Promise<SignedIn> {
  const email = normalizeEmail(input.email);
  const now = deps.now();
  const failed = async (userId: string | null, merchantId: string | null, error: DomainError): Promise<never> => {
    await recordAudit(tx, now, { userId, merchantId, mode: null, action: "sign_in_failed", clientIp: input.clientIp });
    throw error;
  };
  let release: () => Promise<void>;
  try {
    release = await admitSignIn(deps.config.dashboard, tx, { email, clientIp: input.clientIp }, now);
  } catch (error) {
    if (error instanceof DomainError) return failed(null, null, error);
    throw error;
  }
  const user = await db(tx)
    .selectFrom("dashboard_users")
    .select(["id", "password_hash", "totp_secret", "preferred_merchant_id"])
    .where("email", "=", email)
    .executeTakeFirst();
  const matches = await passwordMatches(user?.password_hash, input.password);
  if (!user || !matches) return failed(user?.id ?? null, user?.preferred_merchant_id ?? null, wrongCredentials());
  if (user.totp_secret !== null && !(await useTotpCode(tx, user.id, user.totp_secret, input.totp, now))) {
    return failed(user.id, user.preferred_merchant_id, new DomainError("unauthorized", "A valid one-time code from your authenticator app is required."));
  }
  await release();
  return startSession(deps, tx, user.id, input);
}

/** dashboard.auth.signOut: this session ends. */
export async function signOut(_deps: CoreDeps, tx: Tx, caller: SessionCaller): Promise<{ signed_out: true }> {
  await endSession(tx, caller.session.sessionId);
  return { signed_out: true };
}
