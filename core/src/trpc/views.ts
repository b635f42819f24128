import { z } from "zod";
import { dashboard } from "../operations/dashboard.ts";
import { noInput } from "../operations/index.ts";
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
});
