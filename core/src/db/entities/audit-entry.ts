import { defineEntity, p } from "@mikro-orm/core";

/**
 * The dashboard's audit log (DESIGN §5): every sign-in, success or failure, and every dashboard
 * mutation. No foreign keys: a row outlives what it names until AUDIT_RETENTION purges it. A
 * failed sign-in of an unknown e-mail has no user (its e-mail is not kept: it may be a password
 * typed in the wrong field).
 */
export const AuditEntry = defineEntity({
  name: "AuditEntry",
  tableName: "audit_log",
  properties: {
    seq: p.bigint("string").primary().autoincrement().generated("identity"),
    user_id: p.text().nullable(),
    merchant_id: p.text().nullable(),
    mode: p.text().nullable(),
    action: p.text(),
    object_id: p.text().nullable(),
    client_ip: p.text().nullable(),
    created_at: p.datetime(3),
  },
  indexes: [
    // The Security page: one merchant's log, newest first, keyset on seq.
    { name: "audit_log_merchant_idx", columns: [{ name: "merchant_id" }, { name: "seq", sort: "desc" }] },
    // The retention purge takes the oldest rows.
    { name: "audit_log_created_idx", properties: "created_at" },
  ],
});
