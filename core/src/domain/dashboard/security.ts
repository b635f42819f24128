import { db } from "../../db/orm.ts";
import type { SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { Tx } from "../unit-of-work.ts";
import { endUserSessions } from "./sessions.ts";
import { newTotpSecret, totpUri } from "./totp.ts";
import { useTotpCode } from "./totp-use.ts";

// The Security page (DESIGN §5): sign out everywhere, and TOTP on and off. Turning TOTP on takes two
// steps — a pending secret shown once (totpStart), then a code from the app that proves it was
// stored (totpEnable) — so nobody locks themselves out with a secret their app never got.

/** Every session of the user ends, this one included. */
export async function signOutEverywhere(_deps: CoreDeps, tx: Tx, caller: SessionCaller): Promise<{ ended: number }> {
  return { ended: await endUserSessions(tx, caller.session.userId) };
}

export async function totpStart(_deps: CoreDeps, tx: Tx, caller: SessionCaller): Promise<{ secret: string; otpauth_url: string }> {
  const user = await db(tx).selectFrom("dashboard_users").select(["email", "totp_secret"]).where("id", "=", caller.session.userId).executeTakeFirstOrThrow();
  if (user.totp_secret !== null) fail("validation_error", "Two-step sign-in is already on; turn it off first to use another app.");
  const secret = newTotpSecret();
  await db(tx).updateTable("dashboard_users").set({ totp_pending_secret: secret }).where("id", "=", caller.session.userId).execute();
  return { secret, otpauth_url: totpUri(secret, user.email) };
}

export async function totpEnable(deps: CoreDeps, tx: Tx, caller: SessionCaller, { code }: { code: string }): Promise<{ totp_enabled: true }> {
  const user = await db(tx).selectFrom("dashboard_users").select(["totp_pending_secret"]).where("id", "=", caller.session.userId).executeTakeFirstOrThrow();
  if (user.totp_pending_secret === null) fail("validation_error", "Start setting up two-step sign-in first.");
  if (!(await useTotpCode(tx, caller.session.userId, user.totp_pending_secret!, code, deps.now())))
    fail("validation_error", "code: not the code your app shows now.");
  await db(tx)
    .updateTable("dashboard_users")
    .set({ totp_secret: user.totp_pending_secret, totp_pending_secret: null })
    .where("id", "=", caller.session.userId)
    .execute();
  return { totp_enabled: true };
}

export async function totpDisable(deps: CoreDeps, tx: Tx, caller: SessionCaller, { code }: { code: string }): Promise<{ totp_enabled: false }> {
  const user = await db(tx).selectFrom("dashboard_users").select(["totp_secret"]).where("id", "=", caller.session.userId).executeTakeFirstOrThrow();
  if (user.totp_secret === null) fail("validation_error", "Two-step sign-in is not on.");
  if (!(await useTotpCode(tx, caller.session.userId, user.totp_secret!, code, deps.now()))) fail("validation_error", "code: not the code your app shows now.");
  await db(tx).updateTable("dashboard_users").set({ totp_secret: null }).where("id", "=", caller.session.userId).execute();
  return { totp_enabled: false };
}
