import { router } from "../init.ts";
import { bankAccountActions, linkActions, paymentActions, payoutActions } from "./actions.ts";
import { apiKeysRouter } from "./api-keys.ts";
import { authRouter } from "./auth.ts";
import { eventsRouter } from "./events.ts";
import { homeRouter } from "./home.ts";
import { linkReads } from "./link-reads.ts";
import { balanceReads, bankAccountReads, payoutReads } from "./money-reads.ts";
import { paymentReads } from "./payment-reads.ts";
import { requestLogsRouter } from "./request-logs.ts";
import { settingsRouter } from "./settings.ts";
import { securityRouter, teamRouter } from "./team.ts";
import { webhooksRouter } from "./webhooks.ts";

/**
 * appRouter.dashboard: what the facade forwards from the dashboard app (its credential on every
 * call, the browser's session token, address and User-Agent besides). Each area of the dashboard
 * adds its router here.
 */
export const dashboardRouter = router({
  auth: authRouter,
  security: securityRouter,
  team: teamRouter,
  home: homeRouter,
  payments: router({ ...paymentReads, ...paymentActions }),
  links: router({ ...linkReads, ...linkActions }),
  balances: router({ ...balanceReads }),
  payouts: router({ ...payoutReads, ...payoutActions }),
  bankAccounts: router({ ...bankAccountReads, ...bankAccountActions }),
  apiKeys: apiKeysRouter,
  requestLogs: router(requestLogsRouter),
  webhooks: router(webhooksRouter),
  events: router(eventsRouter),
  settings: settingsRouter,
});
