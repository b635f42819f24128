import { db } from "../../db/orm.ts";
import type { OperatorCaller, ServiceCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { fail } from "../errors.ts";
import { atomically, withoutEvents, type Changes, type Tx } from "../unit-of-work.ts";
import { recordAudit } from "./audit-log.ts";
import { checkNewPassword, hashPassword } from "./passwords.ts";
import { endUserSessions } from "./sessions.ts";
import { normalizeEmail, startSession, type ClientInfo, type SignedIn } from "./sign-in.ts";
import { issueUserToken, useToken } from "./user-tokens.ts";

// Password resets (DESIGN §5): an operator issues the one-use URL (`paytami users reset-password`;
// there is no e-mail sending yet), the person chooses a new password there, every session of
// theirs ends and they land signed in with a new one.

export interface ResetIssued {
  user_id: string;
  reset_url: string;
}

export async function issuePasswordReset(deps: CoreDeps, tx: Tx, _operator: OperatorCaller, { email }: { email: string }): Promise<Changes<ResetIssued>> {
  const user = await db(tx).selectFrom("dashboard_users").select("id").where("email", "=", normalizeEmail(email)).executeTakeFirst();
  if (!user) return fail("validation_error", `email: no dashboard user ${normalizeEmail(email)}.`);
  const resetUrl = await issueUserToken(deps.config, tx, "reset", user.id, null, deps.now());
  return withoutEvents({ user_id: user.id, reset_url: resetUrl });
}

export interface ResetPasswordInput extends ClientInfo {
  token: string;
  password: string;
}

/** dashboard.auth.resetPassword: the new password, the token used up, every session ended, then signed in anew. */
export async function resetPassword(deps: CoreDeps, tx: Tx, _facade: ServiceCaller<"facade">, input: ResetPasswordInput): Promise<SignedIn> {
  checkNewPassword(input.password);
  const hash = await hashPassword(input.password);
  const now = deps.now();
  const userId = await atomically(tx, async (inner) => {
    const { userId } = await useToken(inner, "reset", input.token, now);
    await db(inner).updateTable("dashboard_users").set({ password_hash: hash }).where("id", "=", userId).execute();
    await endUserSessions(inner, userId);
    return withoutEvents(userId);
  });
  await recordAudit(tx, now, { userId, merchantId: null, mode: null, action: "reset_password", objectId: userId, clientIp: input.clientIp });
  return startSession(deps, tx, userId, input);
}
