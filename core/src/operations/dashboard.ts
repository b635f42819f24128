import { z } from "zod";
import { listDashboardPayments } from "../domain/dashboard-payments.ts";
import { getHomeSummary } from "../domain/home-summary.ts";
import { listLinkPayments } from "../domain/link-payments.ts";
import { defineOperation } from "../domain/operation.ts";
import { getPaymentDetail } from "../domain/payment-detail.ts";
import { exportPayments } from "../domain/payments-export.ts";
import { anId, noInput, pageQuery } from "./inputs.ts";

/** The filters of the payments list and its CSV export (payment-filters.ts reads their meaning). */
const paymentFilters = {
  status: z.string().optional(),
  currency: z.string().optional(),
  method: z.string().optional(),
  created_from: z.string().optional(),
  created_to: z.string().optional(),
  search: z.string().optional(),
};

/**
 * The dashboard's read views (core/README.md "Dashboard views"): a session of any role reads them,
 * and an operator acting for a merchant sees the same.
 */
export const dashboard = {
  homeSummary: defineOperation({
    name: "get_home_summary",
    callers: ["operator", "session"],
    role: "viewer",
    input: noInput,
    transaction: "read",
    run: getHomeSummary,
  }),
  listPayments: defineOperation({
    name: "list_dashboard_payments",
    callers: ["operator", "session"],
    role: "viewer",
    input: z.strictObject({ ...pageQuery, ...paymentFilters }),
    transaction: "read",
    run: listDashboardPayments,
  }),
  paymentDetail: defineOperation({
    name: "get_payment_detail",
    callers: ["operator", "session"],
    role: "viewer",
    input: anId,
    transaction: "read",
    run: getPaymentDetail,
  }),
  linkPayments: defineOperation({
    name: "list_link_payments",
    callers: ["operator", "session"],
    role: "viewer",
    input: z.strictObject({ ...pageQuery, id: z.string() }),
    transaction: "read",
    run: listLinkPayments,
  }),
  // The rows are read as the transport sends them, each batch its own statement: no transaction.
  exportPayments: defineOperation({
    name: "export_payments",
    callers: ["operator", "session"],
    role: "viewer",
    input: z.strictObject(paymentFilters),
    transaction: "read",
    run: exportPayments,
  }),
};
