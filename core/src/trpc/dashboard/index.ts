import { router } from "../init.ts";
import { bankAccountActions, linkActions, paymentActions, payoutActions } from "./actions.ts";
import { authRouter } from "./auth.ts";
import { securityRouter, teamRouter } from "./team.ts";

/**
 * appRouter.dashboard: what the facade forwards from the dashboard app (its credential on every
 * call, the browser's session token, address and User-Agent besides). Each area of the dashboard
 * adds its router here.
 */
export const dashboardRouter = router({
  auth: authRouter,
  security: securityRouter,
  team: teamRouter,
  payments: router({ ...paymentActions }),
  links: router({ ...linkActions }),
  bankAccounts: router({ ...bankAccountActions }),
  payouts: router({ ...payoutActions }),
});
