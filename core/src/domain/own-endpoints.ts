// /v1/webhook_endpoints: a merchant manages its own endpoints with its API key (its merchant and
// mode are the key's). Values are checked as the operator's create checks them (webhook-endpoints.ts:
// the URL rules and its DNS lookup, the event catalog); the lookup runs before any transaction.
// Rotate and delete are the operator's operations, which admit the merchant too.
import { z } from "zod";
import { db } from "../db/orm.ts";
import { resolveApiKey } from "./api-keys.ts";
import type { MerchantCaller, PresentedCredential } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import {
  checkIdempotencyKeyShape,
  claimKeyIn,
  earlierAnswer,
  merchantScope,
  replayOrConflict,
  requestFingerprint,
  requireIdempotencyKey,
  type IdempotentResult,
} from "./idempotency.ts";
import { isId, newId } from "./ids.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";
import type { IdempotentCommand } from "../operations/inputs.ts";
import { parseOrFail } from "./payment-input.ts";
import { atomically, withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";
import {
  checkEndpointUrl,
  insertEndpoint,
  lockEndpoint,
  parseEnabledEvents,
  toEndpointView,
  unknownEndpoint,
  type EndpointView,
  type EndpointWithSecret,
} from "./webhook-endpoints.ts";
import { WebhookEndpoint } from "../db/entities/index.ts";

const createInput = z.strictObject({
  url: z.string({ error: "is required" }),
  enabled_events: z.array(z.string()).optional(),
});

/**
 * POST /v1/webhook_endpoints. Check order as every create: Idempotency-Key, API key, the key's
 * form, the body (shape, then the event types, then the URL with its DNS lookup), then the key is
 * claimed and the endpoint inserted in one short transaction. A key already held answers the first
 * request's response (its secret included: a replay of a create is that create's answer, stored for
 * IDEMPOTENCY_TTL like every create's) or idempotency_key_reused for a different body; that is
 * looked at before the DNS lookup, so a replay does not depend on the URL resolving again.
 */
export async function createOwnEndpoint(
  deps: CoreDeps,
  tx: Tx,
  presented: PresentedCredential,
  command: IdempotentCommand,
): Promise<IdempotentResult<EndpointWithSecret>> {
  const key = requireIdempotencyKey(command.idempotencyKey);
  const owner = await resolveApiKey(deps, tx, presented);
  checkIdempotencyKeyShape(key);
  if (command.malformed !== undefined) fail("validation_error", command.malformed);
  const input = parseOrFail(createInput, command.input);
  const enabledEvents = parseEnabledEvents(input.enabled_events ?? []);
  const scope = merchantScope(owner);
  const fingerprint = requestFingerprint("create_webhook_endpoint", { url: input.url, enabled_events: enabledEvents });
  const earlier = await earlierAnswer<EndpointWithSecret>(tx, scope, key, fingerprint, deps.now());
  if (earlier) return earlier;
  const url = await checkEndpointUrl(owner.mode, input.url, deps.config.webhooks.allowLoopback);
  return atomically(tx, async (inner): Promise<Changes<IdempotentResult<EndpointWithSecret>>> => {
    const now = deps.now();
    const id = newId("we");
    // The key first: a concurrent request with the same key waits here, then replays this one.
    const claimed = await claimKeyIn(inner, scope, {
      key,
      fingerprint,
      resourceId: id,
      response: "",
      now,
      expiresAt: new Date(now.getTime() + deps.config.idempotencyTtlMs),
    });
    if (!claimed) return withoutEvents(await replayOrConflict<EndpointWithSecret>(inner, scope, key, fingerprint));
    const made = await insertEndpoint(deps, inner, owner, url, enabledEvents, id);
    await db(inner)
      .updateTable("idempotency_keys")
      .set({ response: JSON.stringify(made) })
      .where("scope", "=", scope)
      .where("key", "=", key)
      .execute();
    return withoutEvents({ value: made, replayed: false });
  });
}

/** GET /v1/webhook_endpoints: the key's endpoints, newest first, keyset-paginated on (created_at, id). */
export async function listOwnEndpoints(deps: CoreDeps, tx: Tx, owner: MerchantCaller, query: PageQuery): Promise<Page<EndpointView>> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  const now = deps.now();
  const own = () => db(tx).selectFrom("webhook_endpoints").where("merchant_id", "=", owner.merchantId).where("mode", "=", owner.mode);
  return keysetPage(limit, query.starting_after, {
    noun: "webhook endpoints",
    findCursor: async (id) => {
      if (!isId("we", id)) return undefined;
      const row = await own().select(["created_at", "id"]).where("id", "=", id).executeTakeFirst();
      return row && { created_at: row.created_at, seq: row.id };
    },
    fetch: (after, take) => {
      let q = own().select(["id"]);
      if (after) q = q.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("created_at", "desc").orderBy("id", "desc").limit(take).execute();
    },
    view: (row) => row.id,
  }).then(async (page) => {
    if (page.data.length === 0) return { data: [], has_more: page.has_more };
    const rows = await tx.find(WebhookEndpoint, { id: { $in: page.data } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return { data: page.data.map((id) => toEndpointView(byId.get(id)!, now)), has_more: page.has_more };
  });
}

/** GET /v1/webhook_endpoints/{id}: the key's own endpoint (never its secret). */
export async function getOwnEndpoint(deps: CoreDeps, tx: Tx, owner: MerchantCaller, id: string): Promise<EndpointView> {
  const row = isId("we", id) ? await tx.findOne(WebhookEndpoint, { id, merchant_id: owner.merchantId, mode: owner.mode }) : null;
  if (!row) throw unknownEndpoint(id);
  return toEndpointView(row, deps.now());
}

export interface UpdateOwnEndpointCommand {
  id: string;
  /** The fields as sent (names of the public object); validated here. */
  input: unknown;
  malformed?: string | undefined;
}

const updateInput = z.strictObject({
  url: z.string().optional(),
  enabled_events: z.strictObject({ types: z.array(z.string()) }).optional(),
  enabled: z.boolean().optional(),
});

/**
 * POST /v1/webhook_endpoints/{id}: the URL (checked as at creation, its lookup before the
 * transaction), the subscription and/or the enabled flag. Enabling clears why it was disabled. An
 * unknown endpoint is answered before the body is looked at, like every request naming an object.
 */
export async function updateOwnEndpoint(deps: CoreDeps, tx: Tx, owner: MerchantCaller, command: UpdateOwnEndpointCommand): Promise<EndpointView> {
  await getOwnEndpoint(deps, tx, owner, command.id);
  if (command.malformed !== undefined) fail("validation_error", command.malformed);
  const input = parseOrFail(updateInput, command.input);
  if (input.url === undefined && input.enabled_events === undefined && input.enabled === undefined) {
    fail("validation_error", "Nothing to update: send url, enabled_events or enabled.");
  }
  const enabledEvents = input.enabled_events === undefined ? undefined : parseEnabledEvents(input.enabled_events.types);
  const url = input.url === undefined ? undefined : await checkEndpointUrl(owner.mode, input.url, deps.config.webhooks.allowLoopback);
  return atomically(tx, async (inner) => {
    const row = await lockEndpoint(inner, owner, command.id);
    const now = deps.now();
    if (url !== undefined) row.url = url;
    if (enabledEvents !== undefined) row.enabled_events = enabledEvents;
    if (input.enabled === true) {
      row.enabled = true;
      row.disabled_reason = null;
    } else if (input.enabled === false && row.enabled) {
      row.enabled = false;
      row.disabled_reason = "disabled by the merchant";
    }
    row.updated_at = now;
    await inner.flush();
    return withoutEvents(toEndpointView(row, now));
  });
}
