import { z } from "zod";
import type { IssuedApiKey } from "../domain/api-keys.ts";
import type { CreatedMerchant } from "../domain/merchants.ts";
import { admin } from "../operations/admin.ts";
import { router } from "./init.ts";
import { asIs, mutation, operator } from "./operation-procedure.ts";

const merchantInput = z.strictObject({ name: z.string(), currencies: z.array(z.string()).default([]), methods: z.array(z.string()).default([]) });
const originsInput = z.strictObject({ merchant_id: z.string(), origins: z.array(z.string()) });
const keyInput = z.strictObject({ merchant_id: z.string(), mode: z.string(), expires_at: z.string().optional() });

const createdMerchant = (created: CreatedMerchant) => ({ merchant_id: created.merchantId, test_api_key: created.testApiKey, live_api_key: created.liveApiKey });
const origins = (input: z.output<typeof originsInput>) => ({ merchantId: input.merchant_id, origins: input.origins });
const originsSet = (set: { merchantId: string; origins: string[] }) => ({ merchant_id: set.merchantId, origins: set.origins });
const issuedKey = (key: IssuedApiKey) => ({ id: key.id, api_key: key.apiKey, mode: key.mode, expires_at: key.expiresAt?.toISOString() ?? null });

export const merchantsRouter = router({
  create: mutation(admin.createMerchant, merchantInput, operator, asIs, createdMerchant),
  setEmbedOrigins: mutation(admin.setEmbedOrigins, originsInput, operator, origins, originsSet),
  setReturnOrigins: mutation(admin.setReturnOrigins, originsInput, operator, origins, originsSet),
});

export const keysRouter = router({
  create: mutation(
    admin.createApiKey,
    keyInput,
    operator,
    (input) => ({ merchantId: input.merchant_id, mode: input.mode, expiresAt: input.expires_at }),
    issuedKey,
  ),
  revoke: mutation(admin.revokeApiKey, z.strictObject({ id: z.string() }), operator, (input) => input.id, asIs),
});
