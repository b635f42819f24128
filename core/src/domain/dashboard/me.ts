import type { Mode } from "../../config.ts";
import { db } from "../../db/orm.ts";
import type { MerchantRole, SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { Tx } from "../unit-of-work.ts";

/** What the app knows of whoever is signed in (dashboard.auth.me). */
export interface MeView {
  user: { id: string; email: string; totp_enabled: boolean };
  memberships: Array<{ merchant_id: string; merchant_name: string; role: MerchantRole }>;
  merchant_id: string;
  mode: Mode;
  role: MerchantRole;
  language?: string;
  /** The merchant's time zone (Settings), else DASHBOARD_TIME_ZONE: every time the app shows is in it. */
  time_zone: string;
  /** The merchant's default language (Settings): the app's language until the user picks one in this browser; null: the browser's. */
  default_language: string | null;
}

export async function me(deps: CoreDeps, tx: Tx, caller: SessionCaller): Promise<MeView> {
  const user = await db(tx)
    .selectFrom("dashboard_users")
    .select(["id", "email", "totp_secret", "language"])
    .where("id", "=", caller.session.userId)
    .executeTakeFirstOrThrow();
  const memberships = await db(tx)
    .selectFrom("memberships")
    .innerJoin("merchants", "merchants.id", "memberships.merchant_id")
    .select(["memberships.merchant_id", "merchants.name", "memberships.role"])
    .where("memberships.user_id", "=", user.id)
    .orderBy("merchants.name")
    .orderBy("memberships.merchant_id")
    .execute();
  const merchant = await db(tx).selectFrom("merchants").select(["time_zone", "default_language"]).where("id", "=", caller.merchantId).executeTakeFirst();
  return {
    user: { id: user.id, email: user.email, totp_enabled: user.totp_secret !== null },
    memberships: memberships.map((m) => ({ merchant_id: m.merchant_id, merchant_name: m.name, role: m.role as MerchantRole })),
    merchant_id: caller.merchantId,
    mode: caller.mode,
    role: caller.role,
    ...(user.language ? { language: user.language } : {}),
    time_zone: merchant?.time_zone ?? deps.config.dashboardViews.timeZone,
    default_language: merchant?.default_language ?? null,
  };
}

/** Moves the session to another of the user's merchants (remembered for the next sign-in). */
export async function switchMerchant(deps: CoreDeps, tx: Tx, caller: SessionCaller, { merchant_id }: { merchant_id: string }): Promise<MeView> {
  const membership = await db(tx)
    .selectFrom("memberships")
    .select("role")
    .where("user_id", "=", caller.session.userId)
    .where("merchant_id", "=", merchant_id)
    .executeTakeFirst();
  // Another merchant's id answers as an unknown one: it tells nothing about who else is on Paytami.
  if (!membership) return fail("validation_error", "merchant_id: not a merchant of yours.");
  await db(tx).updateTable("dashboard_sessions").set({ merchant_id }).where("id", "=", caller.session.sessionId).execute();
  await db(tx).updateTable("dashboard_users").set({ preferred_merchant_id: merchant_id }).where("id", "=", caller.session.userId).execute();
  return me(deps, tx, { ...caller, merchantId: merchant_id, role: membership.role as MerchantRole });
}

/** Switches the session between test and live (remembered per user, DESIGN §5 "Modes"). */
export async function switchMode(deps: CoreDeps, tx: Tx, caller: SessionCaller, { mode }: { mode: Mode }): Promise<MeView> {
  await db(tx).updateTable("dashboard_sessions").set({ mode }).where("id", "=", caller.session.sessionId).execute();
  await db(tx).updateTable("dashboard_users").set({ preferred_mode: mode }).where("id", "=", caller.session.userId).execute();
  return me(deps, tx, { ...caller, mode });
}
