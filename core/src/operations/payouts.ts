import { z } from "zod";
import { addBankAccount, listBankAccounts } from "../domain/bank-accounts.ts";
import { openChargeback, simulateChargeback, winChargeback } from "../domain/chargebacks.ts";
import { defineOperation } from "../domain/operation.ts";
import { getPayout, listPayouts, payOutNow } from "../domain/payouts.ts";
import { anId, pageQuery } from "./inputs.ts";

/** Chargebacks (sandbox-made): the operator's. Bank accounts and payouts: the operator's and a dashboard session's (viewers read, admins change). */
export const payouts = {
  simulateChargeback: defineOperation({
    name: "simulate_chargeback",
    callers: ["operator"],
    input: z.strictObject({ paymentId: z.string(), action: z.string() }),
    transaction: "transaction",
    run: simulateChargeback,
  }),
  openChargeback: defineOperation({
    name: "open_chargeback",
    callers: ["operator"],
    input: z.strictObject({ paymentId: z.string(), reason: z.string().optional() }),
    transaction: "transaction",
    run: openChargeback,
  }),
  winChargeback: defineOperation({
    name: "win_chargeback",
    callers: ["operator"],
    input: z.strictObject({ paymentId: z.string() }),
    transaction: "transaction",
    run: winChargeback,
  }),
  addBankAccount: defineOperation({
    name: "add_bank_account",
    callers: ["operator", "session"],
    role: "admin",
    input: z.strictObject({
      merchantId: z.string().optional(),
      mode: z.string().optional(),
      currency: z.string(),
      accountNumber: z.string(),
      bankName: z.string().optional(),
      holderName: z.string().optional(),
      active: z.boolean().optional(),
    }),
    transaction: "transaction",
    run: addBankAccount,
  }),
  // Across modes when none is named: not one merchant-and-mode's.
  listBankAccounts: defineOperation({
    name: "list_bank_accounts",
    callers: ["operator", "session"],
    role: "viewer",
    input: z.strictObject({ merchantId: z.string().optional(), mode: z.string().optional() }),
    transaction: "read",
    run: listBankAccounts,
  }),
  // Requested in a short transaction, then taken through the bank's steps, each its own.
  payOutNow: defineOperation({
    name: "pay_out_now",
    callers: ["operator", "session"],
    role: "admin",
    input: z.strictObject({ currency: z.string() }),
    transaction: "steps",
    run: payOutNow,
  }),
  get: defineOperation({ name: "get_payout", callers: ["operator", "session"], role: "viewer", input: anId, transaction: "read", run: getPayout }),
  list: defineOperation({
    name: "list_payouts",
    callers: ["operator", "session"],
    role: "viewer",
    input: z.strictObject(pageQuery),
    transaction: "read",
    run: listPayouts,
  }),
};
