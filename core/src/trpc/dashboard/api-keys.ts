import { z } from "zod";
import type { IssuedApiKey, RolledApiKey } from "../../domain/api-keys.ts";
import { admin } from "../../operations/admin.ts";
import { noInput } from "../../operations/index.ts";
import { router } from "../init.ts";
import { asIs, NO_INPUT, sessionMutation, sessionQuery } from "../operation-procedure.ts";

// dashboard.apiKeys.*: the session's merchant's keys of the session's mode (developers and up). A
// new key's secret is in the create and roll answers only; the list never has it.
const issued = (key: IssuedApiKey) => ({ id: key.id, api_key: key.apiKey, mode: key.mode, expires_at: key.expiresAt?.toISOString() ?? null });

export const apiKeysRouter = router({
  list: sessionQuery(admin.listApiKeys, NO_INPUT, noInput, asIs),
  create: sessionMutation(admin.createApiKey, NO_INPUT, () => ({}), issued),
  revoke: sessionMutation(admin.revokeApiKey, z.strictObject({ id: z.string().max(64) }), (input) => input.id, asIs),
  roll: sessionMutation(
    admin.rollApiKey,
    z.strictObject({ id: z.string().max(64), expires_in_seconds: z.number() }),
    (input) => ({ id: input.id, expiresInSeconds: input.expires_in_seconds }),
    (rolled: RolledApiKey) => ({ id: rolled.id, expires_at: rolled.expiresAt.toISOString(), new_key: issued(rolled.replacement) }),
  ),
});
