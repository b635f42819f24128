import { db } from "../../db/orm.ts";
import { MERCHANT_ROLES, type MerchantRole, type SessionCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import { DomainError, fail } from "../errors.ts";
import { withoutEvents, type Changes, type Tx } from "../unit-of-work.ts";
import { checkMayGrant } from "./invites.ts";
import { endUserSessions } from "./sessions.ts";

// The Team page (DESIGN §5): members and roles. Admins change and remove non-owners; only an owner
// touches an owner's membership; the last owner can be neither removed nor demoted. The owners'
// rows are locked first, so two owners demoting each other at once cannot leave none.

export interface MemberView {
  user_id: string;
  email: string;
  role: MerchantRole;
  /** "invited": the invite has not been accepted yet (no password chosen). */
  status: "active" | "invited";
  totp_enabled: boolean;
  created_at: string;
}

export async function listMembers(_deps: CoreDeps, tx: Tx, caller: SessionCaller): Promise<{ data: MemberView[] }> {
  const rows = await db(tx)
    .selectFrom("memberships as m")
    .innerJoin("dashboard_users as u", "u.id", "m.user_id")
    .select(["u.id", "u.email", "m.role", "u.password_hash", "u.totp_secret", "m.created_at"])
    .where("m.merchant_id", "=", caller.merchantId)
    .orderBy("m.created_at")
    .orderBy("u.id")
    .execute();
  return {
    data: rows.map((row) => ({
      user_id: row.id,
      email: row.email,
      role: row.role as MerchantRole,
      status: row.password_hash === null ? "invited" : "active",
      totp_enabled: row.totp_secret !== null,
      created_at: row.created_at.toISOString(),
    })),
  };
}

const notAMember = () => new DomainError("validation_error", "user_id: not a member of this merchant.");

/** The target's membership and the merchant's owners, locked for the change. */
async function lockForChange(tx: Tx, caller: SessionCaller, userId: string): Promise<{ role: MerchantRole; owners: number }> {
  const rows = await db(tx)
    .selectFrom("memberships")
    .select(["user_id", "role"])
    .where("merchant_id", "=", caller.merchantId)
    .where((eb) => eb.or([eb("role", "=", "owner"), eb("user_id", "=", userId)]))
    .orderBy("user_id")
    .forUpdate()
    .execute();
  const target = rows.find((row) => row.user_id === userId);
  if (!target) throw notAMember();
  const role = target.role as MerchantRole;
  if (role === "owner" && caller.role !== "owner") throw new DomainError("unauthorized", "Only an owner may change or remove an owner.");
  return { role, owners: rows.filter((row) => row.role === "owner").length };
}

const lastOwner = () => new DomainError("validation_error", "The last owner cannot be removed or demoted: make someone else an owner first.");

export async function changeRole(
  _deps: CoreDeps,
  tx: Tx,
  caller: SessionCaller,
  input: { user_id: string; role: string },
): Promise<Changes<{ user_id: string; role: MerchantRole }>> {
  if (!(MERCHANT_ROLES as readonly string[]).includes(input.role)) fail("validation_error", `role: must be one of ${MERCHANT_ROLES.join(", ")}.`);
  const role = input.role as MerchantRole;
  checkMayGrant(caller, role);
  const current = await lockForChange(tx, caller, input.user_id);
  if (current.role === "owner" && role !== "owner" && current.owners <= 1) throw lastOwner();
  await db(tx).updateTable("memberships").set({ role }).where("merchant_id", "=", caller.merchantId).where("user_id", "=", input.user_id).execute();
  return withoutEvents({ user_id: input.user_id, role });
}

export async function removeMember(
  deps: CoreDeps,
  tx: Tx,
  caller: SessionCaller,
  input: { user_id: string },
): Promise<Changes<{ user_id: string; removed: true }>> {
  const current = await lockForChange(tx, caller, input.user_id);
  if (current.role === "owner" && current.owners <= 1) throw lastOwner();
  await db(tx).deleteFrom("memberships").where("merchant_id", "=", caller.merchantId).where("user_id", "=", input.user_id).execute();
  // Their sessions in this merchant end now, and an invite to it not yet accepted leads nowhere.
  await endUserSessions(tx, input.user_id, caller.merchantId);
  await db(tx)
    .updateTable("dashboard_user_tokens")
    .set({ used_at: deps.now() })
    .where("user_id", "=", input.user_id)
    .where("merchant_id", "=", caller.merchantId)
    .where("used_at", "is", null)
    .execute();
  return withoutEvents({ user_id: input.user_id, removed: true });
}
