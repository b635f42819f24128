import { modeCodec } from "../../../proto/enums.ts";
import {
  DeliveryServiceService,
  type AttemptResult,
  type ClaimDueDeliveriesRequest,
  type Delivery,
  type DeliveryServiceServer,
  type ListDeliveriesRequest,
  type ListRecentEventsRequest,
  type RecordAttemptsRequest,
} from "../../../proto/gen/paytami/v1/delivery.ts";
import { nullAsAbsent } from "../../../proto/optional-fields.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { deliveries } from "../operations/deliveries.ts";
import type { RejectedAttempt } from "../domain/webhook-deliveries.ts";
import type { DueDelivery } from "../jobs/claim-due-deliveries.ts";
import type { AttemptView, DeliveryView } from "../domain/webhook-delivery-log.ts";
import { operator, processes } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";
import { byId } from "./requests.ts";

function toDeliveryMessage(view: DeliveryView): Delivery {
  return { ...nullAsAbsent(view), mode: modeCodec.fromWire(view.mode) };
}

/** The dispatcher (or an operator): who keeps the books of webhook delivery. */
const deliverer = processes("operator", "dispatcher");

const toDueMessage = (d: DueDelivery) => ({
  delivery_id: d.deliveryId,
  event_id: d.eventId,
  endpoint_id: d.endpointId,
  mode: modeCodec.fromWire(d.mode),
  url: d.url,
  body: d.body,
  secrets: d.secrets,
  attempt: d.attempt,
  traceparent: d.traceparent ?? undefined,
});
const toOutcome = (r: AttemptResult) => ({
  deliveryId: r.delivery_id,
  attemptedAt: new Date(r.attempted_at),
  httpStatus: r.http_status,
  error: r.error,
  latencyMs: r.latency_ms,
  responseExcerpt: r.response_excerpt,
  retryAfterMs: r.retry_after_ms,
});
const claimInput = (request: ClaimDueDeliveriesRequest) => ({ limit: request.limit, leaseMs: request.lease_ms });
const attemptsInput = (request: RecordAttemptsRequest) => ({
  outcomes: request.results.map(toOutcome),
  claim: { limit: request.claim_limit, leaseMs: request.lease_ms },
});
const toRejectedMessage = (r: RejectedAttempt) => ({ index: r.index, delivery_id: r.deliveryId, reason: r.reason });
const listQuery = (request: ListDeliveriesRequest) => ({
  endpointId: request.endpoint_id,
  eventId: request.event_id,
  status: request.status,
  limit: request.limit,
});
const withAttempts = (found: { delivery: DeliveryView; attempts: AttemptView[] }) => ({
  delivery: toDeliveryMessage(found.delivery),
  attempts: found.attempts.map((a) => nullAsAbsent(a)),
});
const recentQuery = (request: ListRecentEventsRequest) => ({
  merchantId: request.merchant_id,
  mode: modeCodec.requestText(request.mode),
  since: request.since,
  limit: request.limit,
});

export function deliveryService(deps: CoreDeps): DeliveryServiceServer {
  return serviceOf(deps, DeliveryServiceService, {
    recordDeliveries: call(
      deliveries.record,
      deliverer,
      (request) => request.event_ids,
      (recorded) => ({ created: recorded.created, unknown_event_ids: recorded.unknownEventIds }),
    ),
    claimDueDeliveries: call(deliveries.claimDue, deliverer, claimInput, (due) => ({ deliveries: due.map(toDueMessage) })),
    recordAttempts: call(deliveries.recordAttempts, deliverer, attemptsInput, (done) => ({
      deliveries: done.deliveries.map(toDueMessage),
      rejected: done.rejected.map(toRejectedMessage),
    })),
    releaseDeliveries: call(
      deliveries.release,
      deliverer,
      (request) => request.delivery_ids,
      () => ({}),
    ),
    listDeliveries: call(deliveries.list, operator, listQuery, (views) => ({ data: views.map(toDeliveryMessage) })),
    getDelivery: call(deliveries.get, operator, byId, withAttempts),
    replayDelivery: call(deliveries.replay, operator, byId, (view) => ({ delivery: toDeliveryMessage(view) })),
    replayFailedDeliveries: call(
      deliveries.replayFailed,
      operator,
      (request) => ({ endpointId: request.endpoint_id, since: request.since }),
      (ids) => ({ delivery_ids: ids }),
    ),
    listRecentEvents: call(deliveries.listRecentEvents, operator, recentQuery, (found) => ({ events: found.events, now: found.now.toISOString() })),
  });
}
