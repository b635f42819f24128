import { z } from "zod";
import { merchantCaller } from "../domain/caller.ts";
import { ledger } from "../operations/ledger.ts";
import { router } from "./init.ts";
import { ACTING_FOR, actingFor, asIs, NO_INPUT, operator, query, type ProcedureCaller } from "./operation-procedure.ts";
import { noInput } from "../operations/index.ts";

/** A merchant's balances per currency: pending, available, in transit (decimal strings). */
export const balancesRouter = router({
  get: query(ledger.balances, z.strictObject(ACTING_FOR), actingFor, noInput, asIs),
});

const paymentInput = z.strictObject({ payment_id: z.string(), merchant_id: z.string().optional(), mode: z.enum(["test", "live"]).optional() });

/** The operator acting for the merchant and mode when the input names both, else on its own (any payment). */
const forMerchantOrAny: ProcedureCaller<z.output<typeof paymentInput>, ReturnType<typeof merchantCaller> | ReturnType<typeof operator.resolve>> = {
  kinds: ["operator"],
  resolve: (ctx, input) =>
    input.merchant_id !== undefined && input.mode !== undefined ? merchantCaller(input.merchant_id, input.mode, "operator") : ctx.operator,
};

/** The ledger: a payment's transactions (for one merchant and mode, or any as the operator), and `ledger verify`. */
export const ledgerRouter = router({
  paymentTransactions: query(ledger.paymentLedger, paymentInput, forMerchantOrAny, (input) => input.payment_id, asIs),
  verify: query(ledger.verify, NO_INPUT, operator, noInput, asIs),
});
