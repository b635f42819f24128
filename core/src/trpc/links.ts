import { z } from "zod";
import { merchantCaller } from "../domain/caller.ts";
import { createLink, deactivateLink, getLink, listLinks } from "../domain/links.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { operatorProcedure, router } from "./init.ts";

// An operator (later: the dashboard's session) acts for one merchant in one mode, with the same
// operations, validation and errors as the merchant's API key gets through REST. Outputs are the
// link object of GET /v1/payment_links.
const actingFor = { merchant_id: z.string(), mode: z.enum(["test", "live"]) };

export const linksRouter = router({
  create: operatorProcedure
    .input(z.object({ ...actingFor, idempotency_key: z.string().optional() }).loose())
    .mutation(async ({ ctx, input }) => {
      const { merchant_id, mode, idempotency_key, ...fields } = input;
      const result = await inTransaction(ctx.deps, (tx) =>
        createLink(ctx.deps, tx, merchantCaller(merchant_id, mode), { idempotencyKey: idempotency_key, input: fields }));
      return result.value;
    }),
  list: operatorProcedure
    .input(z.strictObject({ ...actingFor, limit: z.number().int().optional(), starting_after: z.string().optional() }))
    .query(({ ctx, input }) =>
      withoutTransaction(ctx.deps, (tx) =>
        listLinks(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), { limit: input.limit, starting_after: input.starting_after }))),
  get: operatorProcedure
    .input(z.strictObject({ ...actingFor, id: z.string() }))
    .query(({ ctx, input }) => withoutTransaction(ctx.deps, (tx) => getLink(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), input.id))),
  deactivate: operatorProcedure
    .input(z.strictObject({ ...actingFor, id: z.string() }))
    .mutation(({ ctx, input }) => inTransaction(ctx.deps, (tx) => deactivateLink(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode), input.id))),
});
