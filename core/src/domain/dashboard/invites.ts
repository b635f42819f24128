import { z } from "zod";
import { db } from "../../db/orm.ts";
import { MERCHANT_ROLES, type MerchantRole, type OperatorCaller, type ServiceCaller, type SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError, fail } from "../errors.ts";
import { newId } from "../ids.ts";
import { parseOrFail } from "../payment-input.ts";
import { atomically, withoutEvents, type Changes, type Tx } from "../unit-of-work.ts";
import { recordAudit } from "./audit-log.ts";
import { checkNewPassword, hashPassword, passwordMatches } from "./passwords.ts";
import { normalizeEmail, startSession, type ClientInfo, type SignedIn } from "./sign-in.ts";
import { findUsableToken, issueUserToken, useToken } from "./user-tokens.ts";

// Joining a merchant (DESIGN §5): an operator (`paytami users invite`) or an owner or admin (the Team
// page) invites an e-mail with a role; the membership exists at once and the one-use URL lets the
// person choose a password (a new user) or confirm theirs (someone already on Paytami) and lands
// them signed in to that merchant.

const inviteSchema = z.strictObject({
  email: z
    .string()
    .max(254, "must be at most 254 characters")
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an e-mail address"),
  role: z.enum(MERCHANT_ROLES as [MerchantRole, ...MerchantRole[]], { error: `must be one of ${MERCHANT_ROLES.join(", ")}` }),
});

export interface Invited {
  user_id: string;
  email: string;
  merchant_id: string;
  role: MerchantRole;
  invite_url: string;
}

export interface InviteCommand {
  /** The operator names the merchant; a session invites to its own. */
  merchantId?: string | undefined;
  email: string;
  role: string;
}

/** Only an owner gives or takes the owner role (DESIGN §5: admins invite and remove non-owners). */
export function checkMayGrant(caller: OperatorCaller | SessionCaller, role: MerchantRole): void {
  if (caller.kind === "merchant" && role === "owner" && caller.role !== "owner") {
    throw new DomainError("unauthorized", "Only an owner may make someone an owner.");
  }
}

export async function inviteUser(deps: CoreDeps, tx: Tx, caller: OperatorCaller | SessionCaller, command: InviteCommand): Promise<Changes<Invited>> {
  const { email: typed, role } = parseOrFail(inviteSchema, { email: command.email, role: command.role });
  const email = normalizeEmail(typed);
  checkMayGrant(caller, role);
  const merchantId = caller.kind === "merchant" ? caller.merchantId : (command.merchantId ?? "");
  const now = deps.now();
  const trx = db(tx);
  const merchant = await trx.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
  if (!merchant) fail("validation_error", `merchant: no merchant ${merchantId}.`);
  await trx
    .insertInto("dashboard_users")
    .values({
      id: newId("usr"),
      email,
      password_hash: null,
      totp_secret: null,
      totp_pending_secret: null,
      preferred_mode: "test",
      preferred_merchant_id: merchantId,
      language: null,
      created_at: now,
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
  const user = await trx.selectFrom("dashboard_users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const added = await trx
    .insertInto("memberships")
    .values({ user_id: user.id, merchant_id: merchantId, role, created_at: now })
    .onConflict((oc) => oc.columns(["user_id", "merchant_id"]).doNothing())
    .returning("role")
    .executeTakeFirst();
  if (!added) fail("validation_error", `email: ${email} is already a member of this merchant.`);
  const inviteUrl = await issueUserToken(deps.config, tx, "invite", user.id, merchantId, now);
  return withoutEvents({ user_id: user.id, email, merchant_id: merchantId, role, invite_url: inviteUrl });
}

export interface InviteInfo {
  email: string;
  merchant_name: string;
  role: MerchantRole;
  /** A new user chooses a password; someone already on Paytami confirms theirs. */
  choose_password: boolean;
}

/** What the invite page shows before the password is typed. */
export async function inviteInfo(deps: CoreDeps, tx: Tx, _facade: ServiceCaller<"facade">, { token }: { token: string }): Promise<InviteInfo> {
  const found = await findUsableToken(tx, "invite", token, deps.now());
  const row = await db(tx)
    .selectFrom("dashboard_users as u")
    .innerJoin("memberships as m", "m.user_id", "u.id")
    .innerJoin("merchants", "merchants.id", "m.merchant_id")
    .select(["u.email", "u.password_hash", "merchants.name", "m.role"])
    .where("u.id", "=", found.userId)
    .where("m.merchant_id", "=", found.merchantId ?? "")
    .executeTakeFirst();
  // The membership was removed since: the invite leads nowhere.
  if (!row) throw new DomainError("unauthorized", "This invite link is not valid any more: ask for a new one.");
  return { email: row.email, merchant_name: row.name, role: row.role as MerchantRole, choose_password: row.password_hash === null };
}

export interface AcceptInviteInput extends ClientInfo {
  token: string;
  password: string;
}

/** dashboard.auth.acceptInvite: the password chosen (or confirmed), the token used up, signed in to the invite's merchant. */
export async function acceptInvite(deps: CoreDeps, tx: Tx, _facade: ServiceCaller<"facade">, input: AcceptInviteInput): Promise<SignedIn> {
  const now = deps.now();
  const found = await findUsableToken(tx, "invite", input.token, now);
  const user = await db(tx).selectFrom("dashboard_users").select(["id", "password_hash"]).where("id", "=", found.userId).executeTakeFirstOrThrow();
  let newHash: string | undefined;
  if (user.password_hash === null) {
    checkNewPassword(input.password);
    newHash = await hashPassword(input.password);
  } else if (!(await passwordMatches(user.password_hash, input.password))) {
    throw new DomainError("unauthorized", "Wrong password: this e-mail already has a Paytami account; use its password.");
  }
  const used = await atomically(tx, async (inner) => {
    const used = await useToken(inner, "invite", input.token, now);
    if (newHash)
      await db(inner).updateTable("dashboard_users").set({ password_hash: newHash }).where("id", "=", used.userId).where("password_hash", "is", null).execute();
    return withoutEvents(used);
  });
  await recordAudit(tx, now, {
    userId: used.userId,
    merchantId: used.merchantId,
    mode: null,
    action: "accept_invite",
    objectId: used.userId,
    clientIp: input.clientIp,
  });
  return startSession(deps, tx, used.userId, input, used.merchantId ?? undefined);
}
