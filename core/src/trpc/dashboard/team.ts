import { z } from "zod";
import { noInput } from "../../operations/index.ts";
import { dashboardSecurity, dashboardTeam } from "../../operations/dashboard-team.ts";
import { router } from "../init.ts";
import { asIs, endedSession, NO_INPUT, sessionMutation, sessionQuery } from "../operation-procedure.ts";

// dashboard.team.* (members and roles) and dashboard.security.* (the user's sessions and second
// factor, the merchant's audit log). The merchant is always the session's.
const role = z.enum(["viewer", "developer", "admin", "owner"]);

export const teamRouter = router({
  members: sessionQuery(dashboardTeam.members, NO_INPUT, noInput, asIs),
  // The invite URL is in the answer, shown once to pass on (no e-mail is sent).
  invite: sessionMutation(dashboardTeam.invite, z.strictObject({ email: z.string().max(320), role }), asIs, asIs),
  changeRole: sessionMutation(dashboardTeam.changeRole, z.strictObject({ user_id: z.string(), role }), asIs, asIs),
  remove: sessionMutation(dashboardTeam.remove, z.strictObject({ user_id: z.string() }), asIs, asIs),
});

export const securityRouter = router({
  sessions: sessionQuery(dashboardSecurity.sessions, NO_INPUT, noInput, asIs),
  // This session ends too: the facade drops its cookie.
  signOutEverywhere: sessionMutation(dashboardSecurity.signOutEverywhere, NO_INPUT, noInput, endedSession),
  totpStart: sessionMutation(dashboardSecurity.totpStart, NO_INPUT, noInput, asIs),
  totpEnable: sessionMutation(dashboardSecurity.totpEnable, z.strictObject({ code: z.string().max(16) }), asIs, asIs),
  totpDisable: sessionMutation(dashboardSecurity.totpDisable, z.strictObject({ code: z.string().max(16) }), asIs, asIs),
  auditLog: sessionQuery(
    dashboardSecurity.auditLog,
    z.strictObject({ limit: z.number().int().optional(), starting_after: z.string().optional() }).optional(),
    (input) => ({ limit: input?.limit, starting_after: input?.starting_after }),
    asIs,
  ),
});
