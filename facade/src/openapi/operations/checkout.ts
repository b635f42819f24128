import { checkoutSessionShape } from "../../response-shapes.ts";
import { idParam, operation } from "../operation.ts";

const paymentId = idParam("The payment's id (pay_…): the only credential of this public route.");

export const redirectToCheckout = operation({
  operationId: "redirectToCheckout",
  method: "get",
  path: "/v1/checkout/:id",
  tag: "Checkout",
  summary: "Redirect to the payment page",
  description: "The address in a Payment's `checkout_url`: sends the customer's browser to the hosted payment page while the payment accepts an attempt.",
  auth: "public",
  pathParams: paymentId,
  response: { status: 302, description: "The payment accepts an attempt; `Location` is the payment page." },
  errors: ["unknown_payment", "payment_not_payable", "rate_limited"],
});

export const getCheckoutSession = operation({
  operationId: "getCheckoutSession",
  method: "get",
  path: "/v1/payments/:id/checkout_session",
  tag: "Checkout",
  summary: "Read the checkout session",
  description:
    "The JSON equivalent of the redirect, for the embedded checkout. 200 whenever the payment exists, payable or not. Its `checkout_url` is for Paytami's embed only; read the payment's real status with the authenticated lookup.",
  auth: "public",
  pathParams: paymentId,
  response: { status: 200, description: "Whether the payment accepts another attempt.", body: checkoutSessionShape },
  errors: ["unknown_payment", "rate_limited"],
});
