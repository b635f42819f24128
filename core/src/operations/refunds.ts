import { z } from "zod";
import { defineOperation } from "../domain/operation.ts";
import { createRefund, getRefund, listRefunds } from "../domain/refunds.ts";
import { anId, idempotentCommand, pageQuery } from "./inputs.ts";

/** Refunds (spec 2.4): POST /v1/refunds, the operator acting for a merchant and a dashboard admin; reads for them and viewers. */
export const refunds = {
  create: defineOperation({
    name: "create_refund",
    callers: ["merchant", "operator", "session"],
    role: "admin",
    // The key is resolved after the Idempotency-Key check, in the statement that locks the payment.
    apiKey: "presented",
    input: idempotentCommand,
    // Its own short transaction, opened once the key and the body are checked.
    transaction: "steps",
    run: createRefund,
  }),
  // An operator without a merchant sees any refund.
  get: defineOperation({ name: "get_refund", callers: ["merchant", "operator", "session"], role: "viewer", input: anId, transaction: "read", run: getRefund }),
  list: defineOperation({
    name: "list_refunds",
    callers: ["merchant", "operator", "session"],
    role: "viewer",
    input: z.strictObject({ ...pageQuery, payment_id: z.string().optional() }),
    transaction: "read",
    run: listRefunds,
  }),
};
