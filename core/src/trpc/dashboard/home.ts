import { dashboard } from "../../operations/dashboard.ts";
import { noInput } from "../../operations/index.ts";
import { router } from "../init.ts";
import { asIs, NO_INPUT, sessionQuery } from "../operation-procedure.ts";

/** dashboard.home.summary(): balances, 30 days of volume, recent payments, failing webhooks (core/README.md "Dashboard views"). */
export const homeRouter = router({
  summary: sessionQuery(dashboard.homeSummary, NO_INPUT, noInput, asIs),
});
