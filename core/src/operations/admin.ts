import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from "../domain/api-keys.ts";
import { setEmbedOrigins, setReturnOrigins } from "../domain/merchant-origins.ts";
import { createMerchant } from "../domain/merchants.ts";
import { defineOperation } from "../domain/operation.ts";
import { aNumber, anId, noInput } from "./inputs.ts";

/** Merchants and their origins: the operator's alone. API keys: the operator's, and a dashboard developer's for its own merchant and mode. */
export const admin = {
  createMerchant: defineOperation({
    name: "create_merchant",
    callers: ["operator"],
    input: z.strictObject({ name: z.string(), currencies: z.array(z.string()), methods: z.array(z.string()) }),
    transaction: "transaction",
    run: createMerchant,
  }),
  createApiKey: defineOperation({
    name: "create_api_key",
    callers: ["operator", "session"],
    role: "developer",
    input: z.strictObject({ merchantId: z.string().optional(), mode: z.string().optional(), expiresAt: z.string().optional() }),
    transaction: "transaction",
    run: createApiKey,
  }),
  revokeApiKey: defineOperation({
    name: "revoke_api_key",
    callers: ["operator", "session"],
    role: "developer",
    input: anId,
    transaction: "transaction",
    run: revokeApiKey,
  }),
  // The operator lists acting for a merchant and mode; a session, its own.
  listApiKeys: defineOperation({
    name: "list_api_keys",
    callers: ["operator", "session"],
    role: "developer",
    input: noInput,
    transaction: "read",
    run: listApiKeys,
  }),
  rollApiKey: defineOperation({
    name: "roll_api_key",
    callers: ["operator", "session"],
    role: "developer",
    input: z.strictObject({ id: z.string(), expiresInSeconds: aNumber }),
    transaction: "transaction",
    run: rollApiKey,
  }),
  setEmbedOrigins: defineOperation({
    name: "set_embed_origins",
    callers: ["operator"],
    input: z.strictObject({ merchantId: z.string(), origins: z.array(z.string()) }),
    transaction: "transaction",
    run: setEmbedOrigins,
  }),
  setReturnOrigins: defineOperation({
    name: "set_return_origins",
    callers: ["operator"],
    input: z.strictObject({ merchantId: z.string(), origins: z.array(z.string()) }),
    transaction: "transaction",
    run: setReturnOrigins,
  }),
};
