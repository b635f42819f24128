import { createRefundBody, listRefundsQuery } from "../../refund-request-shapes.ts";
import { pageOf, refundShape } from "../../response-shapes.ts";
import { idParam, operation } from "../operation.ts";

export const createRefund = operation({
  operationId: "createRefund",
  method: "post",
  path: "/v1/refunds",
  tag: "Refunds",
  summary: "Refund a payment",
  description: "Gives back all or part of a captured payment; fires refund.succeeded. Several partial refunds may follow one another up to the amount.",
  auth: "merchant",
  idempotencyKey: "required",
  body: createRefundBody,
  response: { status: 201, description: "The refund, created (or replayed).", body: refundShape, replayable: true },
  errors: [
    "idempotency_key_required",
    "idempotency_key_reused",
    "validation_error",
    "unknown_payment",
    "payment_not_refundable",
    "refund_amount_exceeds_remaining",
  ],
});

export const listRefunds = operation({
  operationId: "listRefunds",
  method: "get",
  path: "/v1/refunds",
  tag: "Refunds",
  summary: "List refunds",
  description: "The key's refunds, newest first, in keyset pages; `payment_id` narrows them to one payment.",
  auth: "merchant",
  query: listRefundsQuery,
  response: { status: 200, description: "A page of refunds.", body: pageOf(refundShape, "RefundPage") },
  errors: ["validation_error", "unknown_payment"],
});

export const getRefund = operation({
  operationId: "getRefund",
  method: "get",
  path: "/v1/refunds/:id",
  tag: "Refunds",
  summary: "Retrieve a refund",
  description: "One refund. The catalog has no code of its own for an unknown refund: it answers 404 unknown_payment.",
  auth: "merchant",
  pathParams: idParam("The refund's id (refund_…)."),
  response: { status: 200, description: "The refund.", body: refundShape },
  errors: ["unknown_payment"],
});
