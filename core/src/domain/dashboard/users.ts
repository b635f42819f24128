import { db } from "../../db/orm.ts";
import type { MerchantRole, OperatorCaller } from "../caller.ts";
import type { CoreDeps } from "../deps.ts";
import type { Tx } from "../unit-of-work.ts";

/** One membership of a dashboard user, as `paytami users list` shows it. */
export interface UserMembershipView {
  user_id: string;
  email: string;
  merchant_id: string;
  role: MerchantRole;
  status: "active" | "invited";
  totp_enabled: boolean;
}

/** Every membership (of one merchant, when named), by e-mail. */
export async function listUsers(
  _deps: CoreDeps,
  tx: Tx,
  _operator: OperatorCaller,
  { merchantId }: { merchantId?: string | undefined },
): Promise<{ data: UserMembershipView[] }> {
  let query = db(tx)
    .selectFrom("memberships as m")
    .innerJoin("dashboard_users as u", "u.id", "m.user_id")
    .select(["u.id", "u.email", "m.merchant_id", "m.role", "u.password_hash", "u.totp_secret"])
    .orderBy("u.email")
    .orderBy("m.merchant_id");
  if (merchantId !== undefined) query = query.where("m.merchant_id", "=", merchantId);
  const rows = await query.execute();
  return {
    data: rows.map((row) => ({
      user_id: row.id,
      email: row.email,
      merchant_id: row.merchant_id,
      role: row.role as MerchantRole,
      status: row.password_hash === null ? "invited" : "active",
      totp_enabled: row.totp_secret !== null,
    })),
  };
}
