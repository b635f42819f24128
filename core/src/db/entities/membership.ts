import { defineEntity, p } from "@mikro-orm/core";
import { DashboardUser } from "./dashboard-user.ts";
import { Merchant } from "./merchant.ts";

/** A user's role in one merchant (DESIGN §5's four roles); a user may have one per merchant. */
export const Membership = defineEntity({
  name: "Membership",
  tableName: "memberships",
  properties: {
    user_id: p.manyToOne(DashboardUser).fieldName("user_id").columnType("text").mapToPk().primary().foreignKeyName("memberships_user_id_fkey"),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().primary().foreignKeyName("memberships_merchant_id_fkey"),
    role: p.text().check("role in ('viewer', 'developer', 'admin', 'owner')"),
    created_at: p.datetime(3),
  },
  indexes: [{ name: "memberships_merchant_idx", properties: "merchant_id" }],
});
