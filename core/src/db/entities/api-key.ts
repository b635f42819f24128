import { defineEntity, p } from "@mikro-orm/core";

/** Only the SHA-256 digest of a key is stored, plus its last four characters for display. */
export const ApiKey = defineEntity({
  name: "ApiKey",
  tableName: "api_keys",
  properties: {
    id: p.string().primary(),
    merchant_id: p.string(),
    mode: p.string(),
    digest: p.string().unique(),
    last4: p.string(),
    created_at: p.datetime(3),
    expires_at: p.datetime(3).nullable(),
    revoked_at: p.datetime(3).nullable(),
  },
});
