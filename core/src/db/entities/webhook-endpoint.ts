import { defineEntity, p } from "@mikro-orm/core";
import { Merchant } from "./merchant.ts";

/**
 * A merchant's webhook endpoint in one mode. `enabled_events` empty means every event type.
 *
 * `secret` (and `previous_secret` during a rotation) are stored as is, unlike API keys: they are
 * HMAC keys the dispatcher must hold to sign each delivery, and a digest cannot sign. Rotation keeps
 * the previous secret signing beside the new one until `previous_secret_expires_at` (24 h).
 */
export const WebhookEndpoint = defineEntity({
  name: "WebhookEndpoint",
  tableName: "webhook_endpoints",
  properties: {
    id: p.text().primary(),
    merchant_id: p.manyToOne(Merchant).fieldName("merchant_id").columnType("text").mapToPk().foreignKeyName("webhook_endpoints_merchant_id_fkey"),
    mode: p.text().check("mode in ('test', 'live')"),
    url: p.text(),
    enabled_events: p.array(),
    secret: p.text(),
    previous_secret: p.text().nullable(),
    previous_secret_expires_at: p.datetime(3).nullable(),
    enabled: p.boolean(),
    disabled_reason: p.text().nullable(),
    created_at: p.datetime(3),
    updated_at: p.datetime(3),
  },
  // Listing a merchant's endpoints, and finding the subscribers of an event (merchant + mode).
  indexes: [{ name: "webhook_endpoints_merchant_idx", columns: [{ name: "merchant_id" }, { name: "mode" }, { name: "created_at", sort: "desc" }] }],
});
