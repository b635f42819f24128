import { z } from "zod";
import { merchantCaller } from "../domain/caller.ts";
import { getRefund, listRefunds } from "../domain/refunds.ts";
import { withoutTransaction } from "../domain/unit-of-work.ts";
import { operatorProcedure, router } from "./init.ts";

// An operator (later: the dashboard's session) acts for one merchant in one mode, with the same
// operations, validation and errors as the merchant's API key gets through REST. Outputs are the
// Refund object of GET /v1/refunds.
const actingFor = { merchant_id: z.string(), mode: z.enum(["test", "live"]) };

export const refundsRouter = router({
  list: operatorProcedure
    .input(z.strictObject({ ...actingFor, payment_id: z.string().optional(), limit: z.number().int().optional(), starting_after: z.string().optional() }))
    .query(({ ctx, input }) =>
      withoutTransaction(ctx.deps, (tx) =>
        listRefunds(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), {
          payment_id: input.payment_id, limit: input.limit, starting_after: input.starting_after,
        }))),
  get: operatorProcedure
    .input(z.strictObject({ ...actingFor, id: z.string() }))
    .query(({ ctx, input }) => withoutTransaction(ctx.deps, (tx) => getRefund(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), input.id))),
});
