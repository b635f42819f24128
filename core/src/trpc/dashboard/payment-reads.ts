import { z } from "zod";
import { dashboard } from "../../operations/dashboard.ts";
import { PAGE, PAYMENT_FILTERS, paymentListQuery } from "../inputs.ts";
import { asIs, sessionQuery } from "../operation-procedure.ts";

/**
 * dashboard.payments.list / .get: the session's merchant and mode only (the input names neither);
 * the same operations an operator reads through views.payments / views.payment. The payments
 * router's actions (refund, cancel) join these in dashboard/index.ts.
 */
export const paymentReads = {
  list: sessionQuery(dashboard.listPayments, z.strictObject({ ...PAYMENT_FILTERS, ...PAGE }), paymentListQuery, asIs),
  get: sessionQuery(dashboard.paymentDetail, z.strictObject({ id: z.string() }), (input) => input.id, asIs),
};
