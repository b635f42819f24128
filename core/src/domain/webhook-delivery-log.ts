// What operators (and a dashboard session, of its own merchant and mode) see of webhook deliveries:
// listing an endpoint's or an event's deliveries, one delivery with every attempt, and replaying
// (one delivery, or every failed one of an endpoint since a time). Replay makes a delivery due now
// with a fresh retry schedule; its past attempts stay.
import { safeText } from "../../../proto/response-excerpt.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller, OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { storedEnvelope } from "./outbox.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";
import { DELIVERY_STATUSES, eventBody, type DeliveryStatus } from "./webhook-deliveries.ts";

export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  merchant_id: string;
  mode: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  last_http_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
}

export interface AttemptView {
  attempted_at: string;
  http_status: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string;
}

export const DELIVERY_COLUMNS = [
  "id",
  "event_id",
  "event_type",
  "endpoint_id",
  "merchant_id",
  "mode",
  "status",
  "attempt_count",
  "next_attempt_at",
  "last_http_status",
  "last_error",
  "last_attempt_at",
  "created_at",
] as const;

export type DeliveryRow = {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  merchant_id: string;
  mode: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_http_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  created_at: Date;
};

export function toView(row: DeliveryRow): DeliveryView {
  return {
    ...row,
    status: row.status as DeliveryStatus,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

const MAX_PAGE_SIZE = 100;

export interface ListDeliveriesQuery {
  endpointId?: string | undefined;
  eventId?: string | undefined;
  status?: string | undefined;
  limit?: number | undefined;
}

/** An operator sees every merchant's deliveries; a merchant caller (a dashboard session) its own mode's only. */
type LogCaller = OperatorCaller | MerchantCaller;

const owns = (caller: LogCaller, row: { merchant_id: string; mode: string }) =>
  caller.kind !== "merchant" || (row.merchant_id === caller.merchantId && row.mode === caller.mode);

/** An endpoint's or an event's deliveries, newest first. */
export async function listDeliveries(_deps: CoreDeps, tx: Tx, caller: LogCaller, query: ListDeliveriesQuery): Promise<DeliveryView[]> {
  if (!query.endpointId && !query.eventId) fail("validation_error", "Name an endpoint (we_…) or an event (evt_…).");
  if (query.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(query.status)) {
    fail("validation_error", `status must be one of ${DELIVERY_STATUSES.join(", ")}.`);
  }
  const limit = query.limit || 25;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) fail("validation_error", `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  let q = db(tx).selectFrom("webhook_deliveries").select(DELIVERY_COLUMNS);
  if (query.endpointId) q = q.where("endpoint_id", "=", query.endpointId);
  if (query.eventId) q = q.where("event_id", "=", query.eventId);
  if (query.status) q = q.where("status", "=", query.status);
  if (caller.kind === "merchant") q = q.where("merchant_id", "=", caller.merchantId).where("mode", "=", caller.mode);
  const rows = await q.orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
  return rows.map(toView);
}

async function findDelivery(tx: Tx, caller: LogCaller, id: string): Promise<DeliveryRow> {
  const row = isId("dlv", id) ? await db(tx).selectFrom("webhook_deliveries").select(DELIVERY_COLUMNS).where("id", "=", id).executeTakeFirst() : undefined;
  return row && owns(caller, row) ? row : fail("validation_error", `No such delivery: ${id}.`);
}

/** One delivery and every attempt of it, oldest first. */
export async function getDelivery(_deps: CoreDeps, tx: Tx, caller: LogCaller, id: string): Promise<{ delivery: DeliveryView; attempts: AttemptView[] }> {
  const delivery = await findDelivery(tx, caller, id);
  const attempts = await db(tx)
    .selectFrom("webhook_attempts")
    .select(["attempted_at", "http_status", "error", "latency_ms", "response_excerpt"])
    .where("delivery_id", "=", id)
    .orderBy("seq")
    .execute();
  return { delivery: toView(delivery), attempts: attempts.map(toAttemptView) };
}

/**
 * An attempt as shown. Cleaned again on the way out: rows stored before excerpts were cleaned on
 * the way in may hold control characters a receiver sent (safeText leaves clean text as it is).
 */
export function toAttemptView(a: {
  attempted_at: Date;
  http_status: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string;
}): AttemptView {
  return {
    attempted_at: a.attempted_at.toISOString(),
    http_status: a.http_status,
    error: a.error === null ? null : safeText(a.error),
    latency_ms: a.latency_ms,
    response_excerpt: safeText(a.response_excerpt),
  };
}

/** Makes one delivery (whatever its status) due now with a fresh retry schedule. */
export async function replayDelivery(deps: CoreDeps, tx: Tx, caller: LogCaller, id: string): Promise<Changes<DeliveryView>> {
  await findDelivery(tx, caller, id);
  const now = deps.now();
  const row = await db(tx)
    .updateTable("webhook_deliveries")
    .set({ status: "pending", round_attempts: 0, next_attempt_at: now, updated_at: now })
    .where("id", "=", id)
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirstOrThrow();
  return withoutEvents(toView(row));
}

/** Makes every failed delivery of an endpoint created at or after `since` due now; returns their ids. */
export async function replayFailedDeliveries(
  deps: CoreDeps,
  tx: Tx,
  caller: LogCaller,
  { endpointId, since: sinceText }: { endpointId: string; since: string },
): Promise<Changes<string[]>> {
  const since = new Date(sinceText);
  if (!/^\d{4}-\d\d-\d\dT/.test(sinceText) || Number.isNaN(since.getTime()))
    fail("validation_error", "since must be an ISO 8601 time such as 2026-11-21T00:00:00Z.");
  const endpoint = isId("we", endpointId)
    ? await db(tx).selectFrom("webhook_endpoints").select(["id", "merchant_id", "mode"]).where("id", "=", endpointId).executeTakeFirst()
    : undefined;
  if (!endpoint || !owns(caller, endpoint)) fail("validation_error", `No such webhook endpoint: ${endpointId}.`);
  const now = deps.now();
  const rows = await db(tx)
    .updateTable("webhook_deliveries")
    .set({ status: "pending", round_attempts: 0, next_attempt_at: now, updated_at: now })
    .where("endpoint_id", "=", endpointId)
    .where("status", "=", "failed")
    .where("created_at", ">=", since)
    .returning("id")
    .execute();
  return withoutEvents(rows.map((row) => row.id));
}

export interface RecentEvent {
  id: string;
  type: string;
  created_at: string;
  body: Buffer;
}

/**
 * A merchant's events of one mode created at or after `since`, oldest first, with the bodies
 * deliveries send (`paytami listen`). Callers poll with an overlap and skip ids they have seen: an
 * event's created_at is stamped before its transaction commits, so a late commit can land behind
 * the previous answer.
 */
export async function listRecentEvents(
  deps: CoreDeps,
  tx: Tx,
  _caller: OperatorCaller,
  query: { merchantId: string; mode: string; since?: string | undefined; limit?: number | undefined },
): Promise<{ events: RecentEvent[]; now: Date }> {
  const now = deps.now();
  if (query.mode !== "test" && query.mode !== "live") fail("validation_error", "mode must be test or live.");
  if (query.since === undefined) return { events: [], now };
  const since = new Date(query.since);
  if (Number.isNaN(since.getTime())) fail("validation_error", "since must be an ISO 8601 time.");
  const limit = Math.min(Math.max(query.limit || 100, 1), 500);
  const rows = await db(tx)
    .selectFrom("outbox_events")
    .select(["id", "type", "created_at", storedEnvelope().as("envelope")])
    .where("merchant_id", "=", query.merchantId)
    .where("mode", "=", query.mode)
    // A test event goes to its one endpoint only, never to a listener.
    .where("endpoint_id", "is", null)
    .where("created_at", ">=", since)
    .orderBy("created_at")
    .orderBy("seq")
    .limit(limit)
    .execute();
  return { events: rows.map((row) => ({ id: row.id, type: row.type, created_at: row.created_at.toISOString(), body: eventBody(row.envelope) })), now };
}
