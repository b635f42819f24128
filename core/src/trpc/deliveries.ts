import { z } from "zod";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { getDelivery, listDeliveries, replayDelivery, replayFailedDeliveries } from "../domain/webhook-delivery-log.ts";
import { operatorProcedure, router } from "./init.ts";

/** Webhook deliveries for operators: list, one with its attempts, replay one or an endpoint's failed ones. */
export const deliveriesRouter = router({
  list: operatorProcedure
    .input(z.strictObject({ endpoint_id: z.string().optional(), event_id: z.string().optional(), status: z.string().optional(), limit: z.number().int().optional() }))
    .query(({ ctx, input }) =>
      withoutTransaction(ctx.deps, (tx) =>
        listDeliveries(ctx.deps, tx, ctx.operator, { endpointId: input.endpoint_id, eventId: input.event_id, status: input.status, limit: input.limit }))
        .then((data) => ({ data }))),
  get: operatorProcedure
    .input(z.strictObject({ id: z.string() }))
    .query(({ ctx, input }) => withoutTransaction(ctx.deps, (tx) => getDelivery(ctx.deps, tx, ctx.operator, input.id))),
  replay: operatorProcedure
    .input(z.strictObject({ id: z.string() }))
    .mutation(({ ctx, input }) => inTransaction(ctx.deps, (tx) => replayDelivery(ctx.deps, tx, ctx.operator, input.id))),
  replayFailed: operatorProcedure
    .input(z.strictObject({ endpoint_id: z.string(), since: z.string() }))
    .mutation(({ ctx, input }) =>
      inTransaction(ctx.deps, (tx) => replayFailedDeliveries(ctx.deps, tx, ctx.operator, input.endpoint_id, input.since))
        .then((ids) => ({ replayed: ids.length, delivery_ids: ids }))),
});
