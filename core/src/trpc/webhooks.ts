import { z } from "zod";
import { merchantCaller } from "../domain/caller.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { createEndpoint, deleteEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from "../domain/webhook-endpoints.ts";
import { operatorProcedure, router } from "./init.ts";

// An operator acts for one merchant in one mode to register and list endpoints; an endpoint id
// names its merchant and mode by itself.
const actingFor = { merchant_id: z.string(), mode: z.enum(["test", "live"]) };

export const webhooksRouter = router({
  create: operatorProcedure
    .input(z.strictObject({ ...actingFor, url: z.string(), enabled_events: z.array(z.string()).default([]) }))
    .mutation(async ({ ctx, input }) => {
      const owner = merchantCaller(input.merchant_id, input.mode);
      const { endpoint, secret } = await withoutTransaction(ctx.deps, (tx) =>
        createEndpoint(ctx.deps, tx, owner, { url: input.url, enabledEvents: input.enabled_events }));
      return { ...endpoint, secret };
    }),
  list: operatorProcedure
    .input(z.strictObject(actingFor))
    .query(async ({ ctx, input }) => ({
      data: await withoutTransaction(ctx.deps, (tx) => listEndpoints(ctx.deps, tx, merchantCaller(input.merchant_id, input.mode))),
    })),
  update: operatorProcedure
    .input(z.strictObject({ id: z.string(), enabled_events: z.array(z.string()).optional(), enabled: z.boolean().optional() }))
    .mutation(({ ctx, input }) =>
      inTransaction(ctx.deps, (tx) =>
        updateEndpoint(ctx.deps, tx, ctx.operator, input.id, { enabledEvents: input.enabled_events, enabled: input.enabled }))),
  rotate: operatorProcedure
    .input(z.strictObject({ id: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { endpoint, secret } = await inTransaction(ctx.deps, (tx) => rotateEndpointSecret(ctx.deps, tx, ctx.operator, input.id));
      return { ...endpoint, secret };
    }),
  delete: operatorProcedure
    .input(z.strictObject({ id: z.string() }))
    .mutation(({ ctx, input }) => inTransaction(ctx.deps, (tx) => deleteEndpoint(ctx.deps, tx, ctx.operator, input.id))),
});
