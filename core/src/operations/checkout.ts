import { z } from "zod";
import { checkEmbedToken, getCheckoutSession, getHostedPayment, resolveCheckout } from "../domain/checkout.ts";
import { cancelCheckout, completeChallenge, startBankTransfer, submitCard } from "../domain/checkout-attempts.ts";
import { defineOperation } from "../domain/operation.ts";
import { anId } from "./inputs.ts";

// The hosted pages (a customer's browser, through the facade). Each read may expire an overdue
// payment on the spot, atomically on its own, and a started bank transfer asks the processor for its
// account; each attempt calls the processor between its own short transactions: all are steps.
export const checkout = {
  resolve: defineOperation({ name: "resolve_checkout", callers: ["public"], input: anId, transaction: "steps", run: resolveCheckout }),
  session: defineOperation({ name: "get_checkout_session", callers: ["public"], input: anId, transaction: "steps", run: getCheckoutSession }),
  hostedPayment: defineOperation({ name: "get_hosted_payment", callers: ["public"], input: anId, transaction: "steps", run: getHostedPayment }),
  verifyEmbedToken: defineOperation({
    name: "verify_embed_token",
    callers: ["public"],
    input: z.strictObject({ paymentId: z.string(), token: z.string() }),
    transaction: "read",
    run: checkEmbedToken,
  }),
  submitCard: defineOperation({
    name: "submit_card",
    callers: ["public"],
    input: z.strictObject({
      paymentId: z.string(),
      card: z.strictObject({ number: z.string(), exp_month: z.number(), exp_year: z.number(), cvc: z.string(), holder_name: z.string() }),
    }),
    transaction: "steps",
    run: submitCard,
  }),
  completeChallenge: defineOperation({
    name: "complete_challenge",
    callers: ["public"],
    input: z.strictObject({ paymentId: z.string(), confirmed: z.boolean() }),
    transaction: "steps",
    run: completeChallenge,
  }),
  startBankTransfer: defineOperation({ name: "start_bank_transfer", callers: ["public"], input: anId, transaction: "steps", run: startBankTransfer }),
  cancel: defineOperation({ name: "cancel_checkout", callers: ["public"], input: anId, transaction: "steps", run: cancelCheckout }),
};
