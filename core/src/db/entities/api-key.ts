import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/** Only the SHA-256 digest of a key is stored, plus its last four characters for display. */
export const ApiKey = defineEntity({
  name: "ApiKey",
  tableName: "api_keys",
  properties: {
    id: p.text().primary(),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("api_keys_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    digest: p.text(),
    last4: p.text(),
    created_at: p.datetime(3),
    expires_at: p.datetime(3).nullable(),
    revoked_at: p.datetime(3).nullable(),
    /** When the key last authenticated a request, to API_KEY_LAST_USED_INTERVAL (written at most once per interval). */
    last_used_at: p.datetime(3).nullable(),
  },
  uniques: [{ name: "api_keys_digest_key", properties: "digest" }],
  indexes: [{ name: "api_keys_merchant_idx", properties: "merchant_id" }],
});
