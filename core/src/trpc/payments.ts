import { z } from "zod";
import { merchantCaller } from "../domain/caller.ts";
import { getPayment, listPayments } from "../domain/payments.ts";
import { cancelPayment } from "../domain/cancel-payment.ts";
import { simulatePayment } from "../domain/simulate-payment.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { operatorProcedure, router } from "./init.ts";

// An operator acts for one merchant in one mode: the same operations, validation and errors as the
// merchant's own API key gets through REST.
const actingFor = { merchant_id: z.string(), mode: z.enum(["test", "live"]) };

export const paymentsRouter = router({
  get: operatorProcedure
    .input(z.strictObject({ ...actingFor, id: z.string() }))
    .query(({ ctx, input }) =>
      withoutTransaction(ctx.deps, (tx) => getPayment(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), input.id))),
  list: operatorProcedure
    .input(z.strictObject({ ...actingFor, limit: z.number().int().optional(), starting_after: z.string().optional(), status: z.string().optional() }))
    .query(({ ctx, input }) =>
      withoutTransaction(ctx.deps, (tx) =>
        listPayments(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), {
          limit: input.limit,
          starting_after: input.starting_after,
          status: input.status,
        }))),
  // The merchant's cancel, as POST /v1/payments/{id}/cancel answers it (Idempotency-Key optional).
  cancel: operatorProcedure
    .input(z.strictObject({ ...actingFor, id: z.string(), idempotency_key: z.string().optional() }))
    .mutation(async ({ ctx, input }) => {
      const result = await withoutTransaction(ctx.deps, (tx) =>
        cancelPayment(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), { id: input.id, idempotencyKey: input.idempotency_key }));
      return result.value;
    }),
  simulate: operatorProcedure
    .input(z.strictObject({ payment_id: z.string(), step: z.string() }))
    .mutation(({ ctx, input }) =>
      inTransaction(ctx.deps, (tx) => simulatePayment(ctx.deps, tx, ctx.operator, input.payment_id, input.step))),
});
