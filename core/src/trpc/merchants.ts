import { z } from "zod";
import type { IssuedApiKey, RolledApiKey } from "../domain/api-keys.ts";
import type { CreatedMerchant } from "../domain/merchants.ts";
import { admin } from "../operations/admin.ts";
import { router } from "./init.ts";
import { noInput } from "../operations/index.ts";
import { ACTING_FOR, actingFor, asIs, mutation, operator, query } from "./operation-procedure.ts";

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
  // The old key keeps working `expires_in_seconds` longer (0 … API_KEY_ROLL_MAX); the new key's secret is shown once.
  roll: mutation(
    admin.rollApiKey,
    z.strictObject({ id: z.string(), expires_in_seconds: z.number() }),
    operator,
    (input) => ({ id: input.id, expiresInSeconds: input.expires_in_seconds }),
    (rolled: RolledApiKey) => ({ id: rolled.id, expires_at: rolled.expiresAt.toISOString(), new_key: issuedKey(rolled.replacement) }),
  ),
  list: query(admin.listApiKeys, z.strictObject(ACTING_FOR), actingFor, noInput, asIs),
});
