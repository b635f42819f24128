import { createLinkBody, listLinksQuery, payLinkBody } from "../../link-request-shapes.ts";
import { linkShape, pageOf, paymentShape, publicLinkShape } from "../../response-shapes.ts";
import { idParam, operation } from "../operation.ts";

const linkId = idParam("The link's id (link_…).");

export const createPaymentLink = operation({
  operationId: "createPaymentLink",
  method: "post",
  path: "/v1/payment_links",
  tag: "Payment links",
  summary: "Create a payment link",
  description: "A reusable link customers pay through: a fixed amount, or one they type between two bounds. Share its `url`.",
  auth: "merchant",
  idempotencyKey: "required",
  body: createLinkBody,
  response: { status: 201, description: "The link, created (or replayed).", body: linkShape, replayable: true },
  errors: ["idempotency_key_required", "idempotency_key_reused", "validation_error", "currency_not_supported", "amount_below_minimum", "amount_above_maximum"],
});

export const listPaymentLinks = operation({
  operationId: "listPaymentLinks",
  method: "get",
  path: "/v1/payment_links",
  tag: "Payment links",
  summary: "List payment links",
  description: "The key's links, newest first, in keyset pages.",
  auth: "merchant",
  query: listLinksQuery,
  response: { status: 200, description: "A page of links.", body: pageOf(linkShape, "PaymentLinkPage") },
  errors: ["validation_error"],
});

export const getPaymentLink = operation({
  operationId: "getPaymentLink",
  method: "get",
  path: "/v1/payment_links/:id",
  tag: "Payment links",
  summary: "Read a link's public view",
  description:
    "What the customer's browser shows before paying. A link that no longer accepts payment still answers 200, with `payable: false` and the reason.",
  auth: "public",
  pathParams: linkId,
  response: { status: 200, description: "The link's public view.", body: publicLinkShape },
  errors: ["unknown_payment_link", "rate_limited"],
});

export const payPaymentLink = operation({
  operationId: "payPaymentLink",
  method: "post",
  path: "/v1/payment_links/:id/pay",
  tag: "Payment links",
  summary: "Pay a link",
  description:
    "Creates the link's payment with the same rules as creating a payment; redirect the customer to its `checkout_url`. The Idempotency-Key is scoped to the link. Attempts per link and client are limited (429 with Retry-After).",
  auth: "public",
  idempotencyKey: "required",
  pathParams: linkId,
  body: payLinkBody,
  response: { status: 201, description: "The payment, created (or replayed).", body: paymentShape, replayable: true },
  errors: [
    "unknown_payment_link",
    "idempotency_key_required",
    "idempotency_key_reused",
    "validation_error",
    "rate_limited",
    "payment_link_not_payable",
    "amount_required",
    "amount_below_minimum",
    "amount_above_maximum",
    "method_not_supported",
  ],
});
