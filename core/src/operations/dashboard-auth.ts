import { z } from "zod";
import { acceptInvite, inviteInfo } from "../domain/dashboard/invites.ts";
import { me, switchMerchant, switchMode } from "../domain/dashboard/me.ts";
import { resetPassword } from "../domain/dashboard/password-reset.ts";
import { signIn, signOut } from "../domain/dashboard/sign-in.ts";
import { defineOperation } from "../domain/operation.ts";
import { noInput } from "./inputs.ts";

/** Where the browser speaks from, as the facade forwarded it: each public dashboard operation takes it. */
const client = { clientIp: z.string().optional(), userAgent: z.string().optional() };

/** Signing in and out of the dashboard, and the session's merchant and mode (DESIGN §5). */
export const dashboardAuth = {
  // The facade's call for a browser without a session; the operation answers the new session's token.
  signIn: defineOperation({
    name: "sign_in",
    callers: ["facade"],
    input: z.strictObject({ email: z.string(), password: z.string(), totp: z.string().optional(), ...client }),
    // The throttle's count, the password check and the session: statements atomic on their own (a
    // failure's count and audit row must stand though the sign-in is refused).
    transaction: "statement",
    run: signIn,
  }),
  // The invite page before the password is typed: whom it invites where.
  inviteInfo: defineOperation({
    name: "get_invite_info",
    callers: ["facade"],
    input: z.strictObject({ token: z.string() }),
    transaction: "read",
    run: inviteInfo,
  }),
  // The password's hash first (outside any transaction), then the token's one use and the password in one transaction, then the session.
  acceptInvite: defineOperation({
    name: "accept_invite",
    callers: ["facade"],
    input: z.strictObject({ token: z.string(), password: z.string(), ...client }),
    transaction: "steps",
    run: acceptInvite,
  }),
  resetPassword: defineOperation({
    name: "reset_password",
    callers: ["facade"],
    input: z.strictObject({ token: z.string(), password: z.string(), ...client }),
    transaction: "steps",
    run: resetPassword,
  }),
  signOut: defineOperation({ name: "sign_out", callers: ["session"], role: "viewer", input: noInput, transaction: "statement", run: signOut }),
  me: defineOperation({ name: "get_me", callers: ["session"], role: "viewer", input: noInput, transaction: "read", run: me }),
  switchMerchant: defineOperation({
    name: "switch_merchant",
    callers: ["session"],
    role: "viewer",
    input: z.strictObject({ merchant_id: z.string() }),
    // Two updates (the session, the user's preference), each atomic on its own.
    transaction: "statement",
    run: switchMerchant,
  }),
  switchMode: defineOperation({
    name: "switch_mode",
    callers: ["session"],
    role: "viewer",
    input: z.strictObject({ mode: z.enum(["test", "live"]) }),
    transaction: "statement",
    run: switchMode,
  }),
};
