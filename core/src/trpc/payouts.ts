import { z } from "zod";
import { addBankAccount, listBankAccounts } from "../domain/bank-accounts.ts";
import { openChargeback, winChargeback } from "../domain/chargebacks.ts";
import { getPayout, listPayouts, payOutNow } from "../domain/payouts.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { operatorProcedure, router } from "./init.ts";

// Payouts, bank accounts and (the processor's, sandbox-made) chargebacks, for operators: an
// operator acts for the merchant and mode named in the input.
const mode = z.enum(["test", "live"]);

export const payoutsRouter = router({
  list: operatorProcedure
    .input(z.strictObject({ merchant_id: z.string(), mode, limit: z.number().int().optional(), starting_after: z.string().optional() }))
    .query(({ ctx, input }) => withoutTransaction(ctx.deps, (tx) =>
      listPayouts(ctx.deps, tx, ctx.operator, { merchantId: input.merchant_id, mode: input.mode, limit: input.limit, starting_after: input.starting_after }))),
  get: operatorProcedure
    .input(z.strictObject({ id: z.string() }))
    .query(({ ctx, input }) => withoutTransaction(ctx.deps, (tx) => getPayout(ctx.deps, tx, ctx.operator, input.id))),
  // Pays out the available balance of one currency now; the payout as it ended.
  request: operatorProcedure
    .input(z.strictObject({ merchant_id: z.string(), mode: mode.default("test"), currency: z.string() }))
    .mutation(({ ctx, input }) => payOutNow(ctx.deps, ctx.operator, { merchantId: input.merchant_id, mode: input.mode, currency: input.currency })),
});

export const bankAccountsRouter = router({
  add: operatorProcedure
    .input(z.strictObject({
      merchant_id: z.string(), mode, currency: z.string(), account_number: z.string(), bank_name: z.string().optional(), holder_name: z.string().optional(),
    }))
    .mutation(({ ctx, input }) => inTransaction(ctx.deps, (tx) => addBankAccount(ctx.deps, tx, ctx.operator, {
      merchantId: input.merchant_id,
      mode: input.mode,
      currency: input.currency,
      accountNumber: input.account_number,
      bankName: input.bank_name,
      holderName: input.holder_name,
    }))),
  list: operatorProcedure
    .input(z.strictObject({ merchant_id: z.string(), mode: mode.optional() }))
    .query(async ({ ctx, input }) => ({
      data: await withoutTransaction(ctx.deps, (tx) => listBankAccounts(ctx.deps, tx, ctx.operator, input.merchant_id, input.mode)),
    })),
});

export const chargebacksRouter = router({
  open: operatorProcedure
    .input(z.strictObject({ payment_id: z.string(), reason: z.string().max(500).optional() }))
    .mutation(({ ctx, input }) => inTransaction(ctx.deps, (tx) => openChargeback(ctx.deps, tx, input.payment_id, input.reason))),
  win: operatorProcedure
    .input(z.strictObject({ payment_id: z.string() }))
    .mutation(({ ctx, input }) => inTransaction(ctx.deps, (tx) => winChargeback(ctx.deps, tx, input.payment_id))),
});
