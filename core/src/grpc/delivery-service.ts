import { modeCodec } from "../../../proto/enums.ts";
import type { Delivery, DeliveryServiceServer, DueDelivery } from "../../../proto/gen/paytami/v1/delivery.ts";
import type { DeliveryCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { serviceAmong } from "../domain/service-credentials.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { recordAttempts, recordDeliveries, releaseDeliveries } from "../domain/webhook-deliveries.ts";
import { getDelivery, listDeliveries, listRecentEvents, replayDelivery, replayFailedDeliveries, type DeliveryView } from "../domain/webhook-delivery-log.ts";
import { claimDueDeliveries } from "../jobs/claim-due-deliveries.ts";
import { unary, type CallContext } from "./unary.ts";

function toDeliveryMessage(view: DeliveryView): Delivery {
  return {
    id: view.id,
    event_id: view.event_id,
    event_type: view.event_type,
    endpoint_id: view.endpoint_id,
    merchant_id: view.merchant_id,
    mode: modeCodec.fromWire(view.mode),
    status: view.status,
    attempt_count: view.attempt_count,
    next_attempt_at: view.next_attempt_at ?? undefined,
    last_http_status: view.last_http_status ?? undefined,
    last_error: view.last_error ?? undefined,
    last_attempt_at: view.last_attempt_at ?? undefined,
    created_at: view.created_at,
  };
}

/** The dispatcher (or an operator): who keeps the books of webhook delivery. */
const deliverer = (ctx: CallContext): DeliveryCaller => serviceAmong(ctx.caller, ["operator", "dispatcher"]);

export function deliveryService(deps: CoreDeps): DeliveryServiceServer {
  const handle = <Req, Res>(method: string, fn: (request: Req, context: CallContext) => Promise<Res>) => unary<Req, Res>(deps, method, fn);
  const claimDue = async (ctx: CallContext, limit: number, leaseMs: number): Promise<DueDelivery[]> =>
    (await claimDueDeliveries(deps, deliverer(ctx), Math.max(1, Math.min(limit, 1_000)), Math.max(1_000, leaseMs))).map((d) => ({
      delivery_id: d.deliveryId,
      event_id: d.eventId,
      endpoint_id: d.endpointId,
      mode: modeCodec.fromWire(d.mode),
      url: d.url,
      body: d.body,
      secrets: d.secrets,
      attempt: d.attempt,
    }));
  return {
    recordDeliveries: handle("RecordDeliveries", async (request, ctx) => {
      const recorded = await inTransaction(deps, (tx) => recordDeliveries(deps, tx, deliverer(ctx), request.event_ids));
      return { created: recorded.created, unknown_event_ids: recorded.unknownEventIds };
    }),
    claimDueDeliveries: handle("ClaimDueDeliveries", async (request, ctx) => ({
      deliveries: await claimDue(ctx, request.limit, request.lease_ms),
    })),
    recordAttempts: handle("RecordAttempts", async (request, ctx) => {
      const outcomes = request.results.map((r) => ({
        deliveryId: r.delivery_id,
        attemptedAt: new Date(r.attempted_at),
        httpStatus: r.http_status,
        error: r.error,
        latencyMs: r.latency_ms,
        responseExcerpt: r.response_excerpt,
        retryAfterMs: r.retry_after_ms,
      }));
      const { rejected } = await inTransaction(deps, (tx) => recordAttempts(deps, tx, deliverer(ctx), outcomes));
      const answered = rejected.map((r) => ({ index: r.index, delivery_id: r.deliveryId, reason: r.reason }));
      if (request.claim_limit <= 0) return { deliveries: [], rejected: answered };
      // After the record committed (the slots it freed count as free). A failed claim must not fail
      // the call: the dispatcher would record the same attempts again; it claims on its own instead.
      const deliveries = await claimDue(ctx, request.claim_limit, request.lease_ms).catch((err: unknown) => {
        deps.log.warn({ err }, "claim after recording attempts failed");
        return [];
      });
      return { deliveries, rejected: answered };
    }),
    releaseDeliveries: handle("ReleaseDeliveries", async (request, ctx) => {
      await inTransaction(deps, (tx) => releaseDeliveries(deps, tx, deliverer(ctx), request.delivery_ids));
      return {};
    }),
    listDeliveries: handle("ListDeliveries", async (request, ctx) => {
      const query = { endpointId: request.endpoint_id, eventId: request.event_id, status: request.status, limit: request.limit };
      const views = await withoutTransaction(deps, (tx) => listDeliveries(deps, tx, ctx.operator, query));
      return { data: views.map(toDeliveryMessage) };
    }),
    getDelivery: handle("GetDelivery", async (request, ctx) => {
      const found = await withoutTransaction(deps, (tx) => getDelivery(deps, tx, ctx.operator, request.id));
      return {
        delivery: toDeliveryMessage(found.delivery),
        attempts: found.attempts.map((a) => ({ ...a, http_status: a.http_status ?? undefined, error: a.error ?? undefined })),
      };
    }),
    replayDelivery: handle("ReplayDelivery", async (request, ctx) => ({
      delivery: toDeliveryMessage(await inTransaction(deps, (tx) => replayDelivery(deps, tx, ctx.operator, request.id))),
    })),
    replayFailedDeliveries: handle("ReplayFailedDeliveries", async (request, ctx) => ({
      delivery_ids: await inTransaction(deps, (tx) => replayFailedDeliveries(deps, tx, ctx.operator, request.endpoint_id, request.since)),
    })),
    listRecentEvents: handle("ListRecentEvents", async (request, ctx) => {
      const query = { merchantId: request.merchant_id, mode: modeCodec.requestText(request.mode), since: request.since, limit: request.limit };
      const found = await withoutTransaction(deps, (tx) => listRecentEvents(deps, tx, ctx.operator, query));
      return { events: found.events, now: found.now.toISOString() };
    }),
  };
}
