import { z } from "zod";
import { authenticate } from "../domain/api-keys.ts";
import { cancelPayment } from "../domain/cancel-payment.ts";
import { createPayment } from "../domain/create-payment.ts";
import { defineOperation } from "../domain/operation.ts";
import { getPayment, listPayments } from "../domain/payments.ts";
import { simulatePayment } from "../domain/simulate-payment.ts";
import { anId, idempotentCommand, noInput, pageQuery } from "./inputs.ts";

/**
 * Payments (spec 2.1): the merchant's API, the operator acting for a merchant, a dashboard session
 * (DESIGN §5's least role: viewers read, admins cancel), and the sandbox's steps.
 */
export const payments = {
  // Whom an API key acts for, and nothing else (the runner resolves the key).
  authenticate: defineOperation({ name: "authenticate", callers: ["merchant"], input: noInput, transaction: "read", run: authenticate }),
  create: defineOperation({
    name: "create_payment",
    callers: ["merchant"],
    // Resolved inside the creation statement, after the Idempotency-Key check: one round trip.
    apiKey: "presented",
    input: idempotentCommand,
    transaction: "statement",
    // The Idempotency-Key makes a second run after an unknown outcome find the first one's payment.
    replaySafe: true,
    run: createPayment,
  }),
  get: defineOperation({
    name: "get_payment",
    callers: ["merchant", "operator", "session"],
    role: "viewer",
    input: anId,
    transaction: "read",
    run: getPayment,
  }),
  list: defineOperation({
    name: "list_payments",
    callers: ["merchant", "operator", "session"],
    role: "viewer",
    input: z.strictObject({ ...pageQuery, status: z.string().optional() }),
    transaction: "read",
    run: listPayments,
  }),
  cancel: defineOperation({
    name: "cancel_payment",
    callers: ["merchant", "operator", "session"],
    role: "admin",
    input: z.strictObject({ id: z.string(), idempotencyKey: z.string().optional() }),
    // Its own short transaction: an expiry found on the way is kept though the cancel is refused.
    transaction: "steps",
    run: cancelPayment,
  }),
  simulate: defineOperation({
    name: "simulate_payment",
    callers: ["operator"],
    input: z.strictObject({ paymentId: z.string(), step: z.string() }),
    transaction: "transaction",
    run: simulatePayment,
  }),
};
