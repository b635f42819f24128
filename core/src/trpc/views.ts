import { z } from "zod";
import { dashboard } from "../operations/dashboard.ts";
import { noInput } from "../operations/index.ts";
import { requestLogs } from "../operations/request-logs.ts";
import { REQUEST_LOG_FILTERS } from "./dashboard/request-logs.ts";
import { router } from "./init.ts";
import { PAGE, PAYMENT_FILTERS, pageQuery, paymentListQuery } from "./inputs.ts";
import { ACTING_FOR, actingFor, asIs, query } from "./operation-procedure.ts";

// The dashboard's read views for an operator acting for one merchant in one mode: the same
// operations (and answers) a dashboard session gets from `dashboard.*` (core/src/trpc/dashboard/).
export const viewsRouter = router({
  home: query(dashboard.homeSummary, z.strictObject(ACTING_FOR), actingFor, noInput, asIs),
  payments: query(dashboard.listPayments, z.strictObject({ ...ACTING_FOR, ...PAYMENT_FILTERS, ...PAGE }), actingFor, paymentListQuery, asIs),
  payment: query(dashboard.paymentDetail, z.strictObject({ ...ACTING_FOR, id: z.string() }), actingFor, (input) => input.id, asIs),
  linkPayments: query(
    dashboard.linkPayments,
    z.strictObject({ ...ACTING_FOR, id: z.string(), ...PAGE }),
    actingFor,
    (input) => ({ ...pageQuery(input), id: input.id }),
    asIs,
  ),
  requestLogs: query(
    requestLogs.list,
    z.strictObject({ ...ACTING_FOR, ...REQUEST_LOG_FILTERS, ...PAGE }),
    actingFor,
    ({ merchant_id: _m, mode: _o, ...rest }) => rest,
    asIs,
  ),
  requestLog: query(requestLogs.get, z.strictObject({ ...ACTING_FOR, id: z.string() }), actingFor, (input) => input.id, asIs),
  // `paytami logs tail`: what was written after `after` (absent: only the cursor to start from).
  tailRequestLogs: query(
    requestLogs.tail,
    z.strictObject({ ...ACTING_FOR, after: z.string().max(20).optional(), status_class: REQUEST_LOG_FILTERS.status_class, limit: z.number().int().optional() }),
    actingFor,
    ({ merchant_id: _m, mode: _o, ...rest }) => rest,
    asIs,
  ),
});
