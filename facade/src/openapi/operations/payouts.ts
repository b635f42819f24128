import { listPageQuery } from "../../payout-request-shapes.ts";
import { chargebackShape, payoutShape } from "../../payout-response-shapes.ts";
import { pageOf } from "../../response-shapes.ts";
import { idParam, operation } from "../operation.ts";

const notFound = (what: string) => ({
  code: "validation_error" as const,
  status: 404,
  when: `No such ${what} of the key's merchant and mode: the catalog has no code of its own for it, so it reads like an unknown route.`,
});

export const listPayouts = operation({
  operationId: "listPayouts",
  method: "get",
  path: "/v1/payouts",
  tag: "Payouts",
  summary: "List payouts",
  description: "The key's payouts (its merchant and mode), newest first, in keyset pages.",
  auth: "merchant",
  query: listPageQuery("payout"),
  response: { status: 200, description: "A page of payouts.", body: pageOf(payoutShape, "PayoutPage") },
  errors: ["validation_error"],
});

export const getPayout = operation({
  operationId: "getPayout",
  method: "get",
  path: "/v1/payouts/:id",
  tag: "Payouts",
  summary: "Retrieve a payout",
  description: "One payout, with the time of each step it went through.",
  auth: "merchant",
  pathParams: idParam("The payout's id (payout_…)."),
  response: { status: 200, description: "The payout.", body: payoutShape },
  errors: [notFound("payout")],
});

export const listChargebacks = operation({
  operationId: "listChargebacks",
  method: "get",
  path: "/v1/chargebacks",
  tag: "Chargebacks",
  summary: "List chargebacks",
  description: "The key's chargebacks (its merchant and mode), newest first, in keyset pages.",
  auth: "merchant",
  query: listPageQuery("chargeback"),
  response: { status: 200, description: "A page of chargebacks.", body: pageOf(chargebackShape, "ChargebackPage") },
  errors: ["validation_error"],
});

export const getChargeback = operation({
  operationId: "getChargeback",
  method: "get",
  path: "/v1/chargebacks/:id",
  tag: "Chargebacks",
  summary: "Retrieve a chargeback",
  description: "One chargeback: opened while disputed, won when the money came back.",
  auth: "merchant",
  pathParams: idParam("The chargeback's id (chb_…)."),
  response: { status: 200, description: "The chargeback.", body: chargebackShape },
  errors: [notFound("chargeback")],
});
