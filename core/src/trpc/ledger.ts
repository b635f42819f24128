import { z } from "zod";
import { merchantCaller } from "../domain/caller.ts";
import { verifyLedger } from "../domain/ledger-verify.ts";
import { getBalances, getPaymentLedger } from "../domain/ledger-views.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import { operatorProcedure, router } from "./init.ts";

// An operator acts for one merchant in one mode, as the merchant's own dashboard would.
const actingFor = { merchant_id: z.string(), mode: z.enum(["test", "live"]) };

/** A merchant's balances per currency: pending, available, in transit (decimal strings). */
export const balancesRouter = router({
  get: operatorProcedure
    .input(z.strictObject(actingFor))
    .query(({ ctx, input }) => withoutTransaction(ctx.deps, (tx) => getBalances(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode)))),
});

/** The ledger: a payment's transactions (for one merchant and mode, or any as the operator), and `ledger verify`. */
export const ledgerRouter = router({
  paymentTransactions: operatorProcedure
    .input(z.strictObject({ payment_id: z.string(), merchant_id: z.string().optional(), mode: z.enum(["test", "live"]).optional() }))
    .query(({ ctx, input }) => {
      const caller = input.merchant_id !== undefined && input.mode !== undefined ? merchantCaller(input.merchant_id, input.mode) : ctx.operator;
      return withoutTransaction(ctx.deps, (tx) => getPaymentLedger(ctx.deps, tx, caller, input.payment_id));
    }),
  verify: operatorProcedure.query(({ ctx }) => withoutTransaction(ctx.deps, (tx) => verifyLedger(ctx.deps, tx, ctx.operator))),
});
