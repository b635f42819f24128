import { z } from "zod";
import { defineOperation } from "../domain/operation.ts";
import { createRefund, getRefund, listRefunds } from "../domain/refunds.ts";
import { anId, idempotentCommand, pageQuery } from "./inputs.ts";

/** Refunds (spec 2.4): POST /v1/refunds and the operator acting for a merchant; reads for both. */
export const refunds = {
  create: defineOperation({
    name: "create_refund",
    callers: ["merchant", "operator"],
    // The key is resolved after the Idempotency-Key check, in the statement that locks the payment.
    apiKey: "presented",
    input: idempotentCommand,
    // Its own short transaction, opened once the key and the body are checked.
    transaction: "steps",
    run: createRefund,
  }),
  // An operator without a merchant sees any refund.
  get: defineOperation({ name: "get_refund", callers: ["merchant", "operator"], input: anId, transaction: "read", run: getRefund }),
  list: defineOperation({
    name: "list_refunds",
    callers: ["merchant", "operator"],
    input: z.strictObject({ ...pageQuery, payment_id: z.string().optional() }),
    transaction: "read",
    run: listRefunds,
  }),
};
