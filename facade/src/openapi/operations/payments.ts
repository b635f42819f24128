import { createPaymentBody, listPaymentsQuery } from "../../request-shapes.ts";
import { pageOf, paymentShape } from "../../response-shapes.ts";
import { idParam, operation } from "../operation.ts";

const paymentId = idParam("The payment's id (pay_…).");

export const createPayment = operation({
  operationId: "createPayment",
  method: "post",
  path: "/v1/payments",
  tag: "Payments",
  summary: "Create a payment",
  description:
    "Creates a charge and answers with its `checkout_url`: redirect the customer there to pay. Retrying with the same Idempotency-Key and body replays the first answer (`Idempotent-Replayed: true`) and never charges twice. Checks run in this order after the key: API key, body shape, currency, method, amount limits.",
  auth: "merchant",
  idempotencyKey: "required",
  body: createPaymentBody,
  response: { status: 201, description: "The payment, created (or replayed).", body: paymentShape, replayable: true },
  errors: [
    "idempotency_key_required",
    "idempotency_key_reused",
    "validation_error",
    "currency_not_supported",
    "method_not_supported",
    "amount_below_minimum",
    "amount_above_maximum",
  ],
});

export const listPayments = operation({
  operationId: "listPayments",
  method: "get",
  path: "/v1/payments",
  tag: "Payments",
  summary: "List payments",
  description: "The key's payments (its merchant and mode), newest first, in keyset pages: payments created while you page never shift the pages.",
  auth: "merchant",
  query: listPaymentsQuery,
  response: { status: 200, description: "A page of payments.", body: pageOf(paymentShape, "PaymentPage") },
  errors: ["validation_error"],
});

export const getPayment = operation({
  operationId: "getPayment",
  method: "get",
  path: "/v1/payments/:id",
  tag: "Payments",
  summary: "Retrieve a payment",
  description:
    "The payment and its current status: the authoritative read (the checkout session is not). Another merchant's or mode's id answers exactly like an unknown one.",
  auth: "merchant",
  pathParams: paymentId,
  response: { status: 200, description: "The payment.", body: paymentShape },
  errors: ["unknown_payment"],
});

export const cancelPayment = operation({
  operationId: "cancelPayment",
  method: "post",
  path: "/v1/payments/:id/cancel",
  tag: "Payments",
  summary: "Cancel a payment",
  description:
    "Cancels a payment that has not completed (created, processing or authorized); fires payment.canceled. No body. With an Idempotency-Key, a retried cancel replays its first answer.",
  auth: "merchant",
  idempotencyKey: "optional",
  pathParams: paymentId,
  response: { status: 200, description: "The canceled payment.", body: paymentShape, replayable: true },
  errors: [
    "unknown_payment",
    "payment_not_payable",
    {
      code: "idempotency_key_required",
      status: 400,
      when: "An Idempotency-Key was sent but is shorter than 8 characters (the header itself is optional here).",
    },
    "idempotency_key_reused",
    "validation_error",
  ],
});
