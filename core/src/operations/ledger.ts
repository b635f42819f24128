import { defineOperation } from "../domain/operation.ts";
import { verifyLedger } from "../domain/ledger-verify.ts";
import { getBalances, getPaymentLedger } from "../domain/ledger-views.ts";
import { anId, noInput } from "./inputs.ts";

/** The ledger for operators: verify it, a merchant's balances, a payment's transactions. */
export const ledger = {
  verify: defineOperation({ name: "verify_ledger", callers: ["operator"], input: noInput, transaction: "read", run: verifyLedger }),
  balances: defineOperation({ name: "get_balances", callers: ["operator", "session"], role: "viewer", input: noInput, transaction: "read", run: getBalances }),
  // For one merchant and mode, or (the operator on its own) any payment.
  paymentLedger: defineOperation({
    name: "list_payment_ledger",
    callers: ["operator", "session"],
    role: "viewer",
    input: anId,
    transaction: "read",
    run: getPaymentLedger,
  }),
};
