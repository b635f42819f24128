// One endpoint's delivery log as its merchant sees it (the dashboard's endpoint page, a developer's
// session; or the merchant's own API key): its deliveries newest first with every attempt of each,
// replaying one, and replaying every failed one since a time. A replay only makes a delivery due now
// with a fresh retry schedule: the dispatchers' claim (core/src/jobs/claim-due-deliveries.ts) sends
// it, never the core inside a transaction. Past attempts stay.
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import { requireEventType } from "./events.ts";
import { isId } from "./ids.ts";
import { keysetPage, parseLimit, type Page, type PageCursor } from "./keyset-page.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";
import { DELIVERY_COLUMNS, toAttemptView, toView, type AttemptView, type DeliveryView } from "./webhook-delivery-log.ts";

/** A delivery with every attempt of it, oldest attempt first. */
export interface DeliveryWithAttempts extends DeliveryView {
  attempts: AttemptView[];
}

/** Another merchant's or mode's endpoint answers like one that never existed (a 404 on the REST API). */
export const unknownEndpoint = (id: string) => new DomainError("validation_error", `No such webhook endpoint: ${id}.`);
const unknownDelivery = (id: string) => new DomainError("validation_error", `No such delivery: ${id}.`);

/** The caller's own endpoint `id` (its merchant and mode), or unknownEndpoint. */
export async function requireOwnEndpoint(tx: Tx, caller: MerchantCaller, id: string): Promise<{ id: string; enabled: boolean }> {
  const row = isId("we", id)
    ? await db(tx)
        .selectFrom("webhook_endpoints")
        .select(["id", "enabled"])
        .where("id", "=", id)
        .where("merchant_id", "=", caller.merchantId)
        .where("mode", "=", caller.mode)
        .executeTakeFirst()
    : undefined;
  if (!row) throw unknownEndpoint(id);
  return row;
}

export interface EndpointDeliveriesQuery {
  endpointId: string;
  limit?: number | undefined;
  /** A delivery id of this endpoint: the page after it. */
  starting_after?: string | undefined;
  /** Only deliveries that ended failed (every scheduled attempt failed). */
  failed?: boolean | undefined;
  /** Only deliveries of this catalog event type. */
  eventType?: string | undefined;
}

/**
 * An endpoint's deliveries, newest first, keyset-paginated on (created_at, id) so new deliveries
 * never shift pages; each with all its attempts, read in one more statement for the whole page.
 */
export async function listEndpointDeliveries(
  _deps: CoreDeps,
  tx: Tx,
  caller: MerchantCaller,
  query: EndpointDeliveriesQuery,
): Promise<Page<DeliveryWithAttempts>> {
  const limit = parseLimit(query.limit);
  const eventType = query.eventType === undefined ? undefined : requireEventType(query.eventType, "eventType");
  const endpoint = await requireOwnEndpoint(tx, caller, query.endpointId);
  const page = await keysetPage(limit, query.starting_after, {
    noun: "this endpoint's deliveries",
    findCursor: async (id): Promise<PageCursor | undefined> => {
      if (!isId("dlv", id)) return undefined;
      const row = await db(tx)
        .selectFrom("webhook_deliveries")
        .select(["created_at", "id"])
        .where("id", "=", id)
        .where("endpoint_id", "=", endpoint.id)
        .executeTakeFirst();
      return row && { created_at: row.created_at, seq: row.id };
    },
    fetch: (after, take) => {
      let q = db(tx).selectFrom("webhook_deliveries").select(DELIVERY_COLUMNS).where("endpoint_id", "=", endpoint.id);
      if (query.failed) q = q.where("status", "=", "failed");
      if (eventType) q = q.where("event_type", "=", eventType);
      if (after) q = q.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("created_at", "desc").orderBy("id", "desc").limit(take).execute();
    },
    view: toView,
  });
  const ids = page.data.map((delivery) => delivery.id);
  const attempts =
    ids.length === 0
      ? []
      : await db(tx)
          .selectFrom("webhook_attempts")
          .select(["delivery_id", "attempted_at", "http_status", "error", "latency_ms", "response_excerpt"])
          .where("delivery_id", "in", ids)
          .orderBy("seq")
          .execute();
  const byDelivery = new Map<string, AttemptView[]>(ids.map((id) => [id, []]));
  for (const attempt of attempts) byDelivery.get(attempt.delivery_id)!.push(toAttemptView(attempt));
  return { data: page.data.map((delivery) => ({ ...delivery, attempts: byDelivery.get(delivery.id)! })), has_more: page.has_more };
}

/** Replays one of the endpoint's deliveries, whatever its status: due now, with a fresh retry schedule. */
export async function replayEndpointDelivery(
  deps: CoreDeps,
  tx: Tx,
  caller: MerchantCaller,
  input: { endpointId: string; deliveryId: string },
): Promise<Changes<DeliveryView>> {
  const endpoint = await requireOwnEndpoint(tx, caller, input.endpointId);
  if (!isId("dlv", input.deliveryId)) throw unknownDelivery(input.deliveryId);
  const now = deps.now();
  const row = await db(tx)
    .updateTable("webhook_deliveries")
    .set({ status: "pending", round_attempts: 0, next_attempt_at: now, updated_at: now })
    .where("id", "=", input.deliveryId)
    .where("endpoint_id", "=", endpoint.id)
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirst();
  if (!row) throw unknownDelivery(input.deliveryId);
  return withoutEvents(toView(row));
}

export interface ReplayedFailed {
  /** How many failed deliveries were made due now. */
  replayed: number;
  /** More failed deliveries since that time remain (WEBHOOK_REPLAY_FAILED_MAX per call): call again. */
  has_more: boolean;
}

/**
 * Makes the endpoint's failed deliveries created at or after `since` due now, the oldest first and
 * at most WEBHOOK_REPLAY_FAILED_MAX of them (one click must not flood a receiver that just came
 * back); a replayed delivery is pending, so calling again takes the next ones.
 */
export async function replayFailedSince(
  deps: CoreDeps,
  tx: Tx,
  caller: MerchantCaller,
  input: { endpointId: string; since: string },
): Promise<Changes<ReplayedFailed>> {
  const since = new Date(input.since);
  if (!/^\d{4}-\d\d-\d\dT/.test(input.since) || Number.isNaN(since.getTime())) {
    fail("validation_error", "since must be an ISO 8601 time such as 2026-11-21T00:00:00Z.");
  }
  const endpoint = await requireOwnEndpoint(tx, caller, input.endpointId);
  const max = deps.config.webhooks.replayFailedMax;
  const now = deps.now();
  const failedSince = () =>
    db(tx).selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", endpoint.id).where("status", "=", "failed").where("created_at", ">=", since);
  const replayed = await db(tx)
    .updateTable("webhook_deliveries")
    .set({ status: "pending", round_attempts: 0, next_attempt_at: now, updated_at: now })
    .where("id", "in", failedSince().orderBy("created_at").orderBy("id").limit(max).forUpdate())
    .executeTakeFirst();
  const more = await failedSince().limit(1).executeTakeFirst();
  return withoutEvents({ replayed: Number(replayed.numUpdatedRows), has_more: more !== undefined });
}
