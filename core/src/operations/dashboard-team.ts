import { z } from "zod";
import { listAuditLog } from "../domain/dashboard/audit-log.ts";
import { inviteUser } from "../domain/dashboard/invites.ts";
import { issuePasswordReset } from "../domain/dashboard/password-reset.ts";
import { signOutEverywhere, totpDisable, totpEnable, totpStart } from "../domain/dashboard/security.ts";
import { listSessions } from "../domain/dashboard/sessions.ts";
import { changeRole, listMembers, removeMember } from "../domain/dashboard/team.ts";
import { listUsers } from "../domain/dashboard/users.ts";
import { defineOperation } from "../domain/operation.ts";
import { aNumber, noInput } from "./inputs.ts";

/** Team (owners and admins manage it), the user's own security settings, and the operator's `paytami users`. */
export const dashboardTeam = {
  members: defineOperation({ name: "list_members", callers: ["session"], role: "viewer", input: noInput, transaction: "read", run: listMembers }),
  // The operator names the merchant; a session invites to its own (admins: non-owners only).
  invite: defineOperation({
    name: "invite_user",
    callers: ["operator", "session"],
    role: "admin",
    input: z.strictObject({ merchantId: z.string().optional(), email: z.string(), role: z.string() }),
    transaction: "transaction",
    run: inviteUser,
  }),
  changeRole: defineOperation({
    name: "change_role",
    callers: ["session"],
    role: "admin",
    input: z.strictObject({ user_id: z.string(), role: z.string() }),
    transaction: "transaction",
    run: changeRole,
  }),
  remove: defineOperation({
    name: "remove_member",
    callers: ["session"],
    role: "admin",
    input: z.strictObject({ user_id: z.string() }),
    transaction: "transaction",
    run: removeMember,
  }),
  issueReset: defineOperation({
    name: "issue_password_reset",
    callers: ["operator"],
    input: z.strictObject({ email: z.string() }),
    transaction: "transaction",
    run: issuePasswordReset,
  }),
  listUsers: defineOperation({
    name: "list_users",
    callers: ["operator"],
    input: z.strictObject({ merchantId: z.string().optional() }),
    transaction: "read",
    run: listUsers,
  }),
};

/** The Security page: the user's own sessions and second factor, and (owners and admins) the merchant's audit log. */
export const dashboardSecurity = {
  sessions: defineOperation({ name: "list_sessions", callers: ["session"], role: "viewer", input: noInput, transaction: "read", run: listSessions }),
  signOutEverywhere: defineOperation({
    name: "sign_out_everywhere",
    callers: ["session"],
    role: "viewer",
    input: noInput,
    transaction: "statement",
    run: signOutEverywhere,
  }),
  totpStart: defineOperation({ name: "start_totp", callers: ["session"], role: "viewer", input: noInput, transaction: "statement", run: totpStart }),
  totpEnable: defineOperation({
    name: "enable_totp",
    callers: ["session"],
    role: "viewer",
    input: z.strictObject({ code: z.string() }),
    transaction: "statement",
    run: totpEnable,
  }),
  totpDisable: defineOperation({
    name: "disable_totp",
    callers: ["session"],
    role: "viewer",
    input: z.strictObject({ code: z.string() }),
    transaction: "statement",
    run: totpDisable,
  }),
  auditLog: defineOperation({
    name: "list_audit_log",
    callers: ["session"],
    role: "admin",
    input: z.strictObject({ limit: aNumber.optional(), starting_after: z.string().optional() }),
    transaction: "read",
    run: listAuditLog,
  }),
};
