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
    scope: p.string().primary(),
    key: p.string().primary(),
    fingerprint: p.string(),
    resource_id: p.string(),
    response: p.text(),
    created_at: p.datetime(3),
    expires_at: p.datetime(3),
  },
});
