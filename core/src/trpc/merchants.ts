import { z } from "zod";
import { createApiKey, revokeApiKey } from "../domain/api-keys.ts";
import { createMerchant } from "../domain/merchants.ts";
import { setEmbedOrigins, setReturnOrigins } from "../domain/merchant-origins.ts";
import { inTransaction } from "../domain/unit-of-work.ts";
import { operatorProcedure, router } from "./init.ts";

export const merchantsRouter = router({
  create: operatorProcedure
    .input(z.strictObject({ name: z.string(), currencies: z.array(z.string()).default([]), methods: z.array(z.string()).default([]) }))
    .mutation(async ({ ctx, input }) => {
      const created = await inTransaction(ctx.deps, (tx) => createMerchant(ctx.deps, tx, ctx.operator, input));
      return { merchant_id: created.merchantId, test_api_key: created.testApiKey, live_api_key: created.liveApiKey };
    }),
  setEmbedOrigins: operatorProcedure
    .input(z.strictObject({ merchant_id: z.string(), origins: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => {
      const set = await inTransaction(ctx.deps, (tx) => setEmbedOrigins(ctx.deps, tx, ctx.operator, { merchantId: input.merchant_id, origins: input.origins }));
      return { merchant_id: set.merchantId, origins: set.origins };
    }),
  setReturnOrigins: operatorProcedure
    .input(z.strictObject({ merchant_id: z.string(), origins: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => {
      const set = await inTransaction(ctx.deps, (tx) => setReturnOrigins(ctx.deps, tx, ctx.operator, { merchantId: input.merchant_id, origins: input.origins }));
      return { merchant_id: set.merchantId, origins: set.origins };
    }),
});

export const keysRouter = router({
  create: operatorProcedure
    .input(z.strictObject({ merchant_id: z.string(), mode: z.string(), expires_at: z.string().optional() }))
    .mutation(async ({ ctx, input }) => {
      const request = { merchantId: input.merchant_id, mode: input.mode, expiresAt: input.expires_at };
      const key = await inTransaction(ctx.deps, (tx) => createApiKey(ctx.deps, tx, ctx.operator, request));
      return { id: key.id, api_key: key.apiKey, mode: key.mode, expires_at: key.expiresAt?.toISOString() ?? null };
    }),
  revoke: operatorProcedure
    .input(z.strictObject({ id: z.string() }))
    .mutation(({ ctx, input }) => inTransaction(ctx.deps, (tx) => revokeApiKey(ctx.deps, tx, ctx.operator, input.id))),
});
