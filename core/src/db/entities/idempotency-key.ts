import { defineEntity, p } from "@mikro-orm/core";

/**
 * A key binds to the one object it created. `scope` is "<merchant>:<mode>" for
 * merchant endpoints and the link id for link payments; `response` is the
 * original response body, replayed verbatim.
 */
export const IdempotencyKey = defineEntity({
  name: "IdempotencyKey",
  tableName: "idempotency_keys",
  properties: {
    scope: p.text().primary(),
    key: p.text().primary(),
    fingerprint: p.text(),
    resource_id: p.text(),
    response: p.text(),
    created_at: p.datetime(3),
    expires_at: p.datetime(3),
  },
  indexes: [{ name: "idempotency_keys_expiry_idx", properties: "expires_at" }],
});
