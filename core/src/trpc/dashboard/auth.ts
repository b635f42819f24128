import { z } from "zod";
import { dashboardAuth } from "../../operations/dashboard-auth.ts";
import { noInput } from "../../operations/index.ts";
import { router } from "../init.ts";
import {
  asIs,
  endedSession,
  facadeMutation,
  facadeQuery,
  issueSession,
  NO_INPUT,
  sessionMutation,
  sessionQuery,
  type FacadeContext,
} from "../operation-procedure.ts";

// dashboard.auth.*: signing in (the token goes to the facade as X-Paytami-Session-Set, never into the
// page), signing out (X-Paytami-Session-Clear), who is signed in, and the session's merchant and mode.
const signInInput = z.strictObject({ email: z.string().max(320), password: z.string().max(1024), totp: z.string().max(16).optional() });
const tokenInput = z.strictObject({ token: z.string().max(100) });
const tokenAndPassword = z.strictObject({ token: z.string().max(100), password: z.string().max(1024) });

/** The browser's address and User-Agent, as the facade forwarded them, for the operation's session and audit row. */
const withClient = <T>(input: T, ctx: FacadeContext) => ({ ...input, clientIp: ctx.browser.clientIp, userAgent: ctx.browser.userAgent });

export const authRouter = router({
  signIn: facadeMutation(dashboardAuth.signIn, signInInput, withClient, issueSession),
  inviteInfo: facadeQuery(dashboardAuth.inviteInfo, tokenInput, asIs, asIs),
  acceptInvite: facadeMutation(dashboardAuth.acceptInvite, tokenAndPassword, withClient, issueSession),
  resetPassword: facadeMutation(dashboardAuth.resetPassword, tokenAndPassword, withClient, issueSession),
  signOut: sessionMutation(dashboardAuth.signOut, NO_INPUT, noInput, endedSession),
  me: sessionQuery(dashboardAuth.me, NO_INPUT, noInput, asIs),
  switchMerchant: sessionMutation(dashboardAuth.switchMerchant, z.strictObject({ merchant_id: z.string() }), asIs, asIs),
  switchMode: sessionMutation(dashboardAuth.switchMode, z.strictObject({ mode: z.enum(["test", "live"]) }), asIs, asIs),
});
